/*
 * Stand-in for https://js.hsforms.net/forms/embed/v2.js in browser tests (served through
 * Playwright's request interception). Like the real embed it exposes hbspt.forms.create(),
 * renders a form into `target`, calls onFormReady / onFormSubmit / onFormSubmitted, and posts the
 * `hsFormCallback` window message. Tests steer it with window.__fakeHubSpot before page scripts:
 *   { fields: [{ name, label, type, options }], noCallback: true, submitDelayMs: 0 }
 */
(() => {
  var defaults = [
    { name: 'full_name', label: 'Full name', type: 'text' },
    { name: 'email', label: 'Email', type: 'email' },
    { name: 'child_full_name', label: "Child's full name", type: 'text' },
    { name: 'child_grade', label: "Child's grade", type: 'text' },
    { name: 'school_name', label: 'School name', type: 'text' },
    { name: 'school_contact_name', label: 'School contact name', type: 'text' },
    { name: 'school_contact_email', label: 'School contact email', type: 'email' },
    { name: 'role_to_student', label: 'Role to student', type: 'text' },
    { name: 'state', label: 'State', type: 'text' },
    { name: 'city', label: 'City', type: 'text' },
    {
      name: 'choose_how_to_send_your_email',
      label: 'Choose how to send your email',
      type: 'select',
      options: ['I will send it myself', 'Send via our platform'],
    },
    { name: 'referral_source', label: '', type: 'hidden' },
  ];

  function create(options) {
    var settings = window.__fakeHubSpot || {};
    var target = document.querySelector(options.target);
    if (!target) return;
    var form = document.createElement('form');
    form.className = 'hs-form fake-hs-form';
    form.setAttribute('data-form-id', options.formId);
    form.setAttribute('novalidate', '');
    (settings.fields || defaults).forEach((field) => {
      // Unique per target: the same form may be on a page twice (the newsletter).
      var id = `fake-${target.id || options.formId}-${field.name}`;
      var input;
      if (field.type === 'select') {
        input = document.createElement('select');
        field.options.forEach((option) => {
          var el = document.createElement('option');
          el.value = option;
          el.textContent = option;
          input.appendChild(el);
        });
      } else {
        input = document.createElement('input');
        input.type = field.type;
      }
      input.name = field.name;
      input.id = id;
      if (field.type !== 'hidden') {
        var label = document.createElement('label');
        label.htmlFor = id;
        label.textContent = field.label;
        var row = document.createElement('div');
        row.appendChild(label);
        row.appendChild(input);
        form.appendChild(row);
      } else {
        form.appendChild(input);
      }
    });
    var submit = document.createElement('input');
    submit.type = 'submit';
    submit.value = 'Submit';
    form.appendChild(submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      var values = [];
      Array.prototype.forEach.call(form.elements, (el) => {
        if (el.name) values.push({ name: el.name, value: el.value });
      });
      var asObject = {};
      values.forEach((v) => {
        asObject[v.name] = v.value;
      });
      if (options.onFormSubmit) options.onFormSubmit(form, { submissionValues: asObject });
      setTimeout(() => {
        var thanks = document.createElement('div');
        thanks.className = 'submitted-message';
        thanks.textContent = 'Thanks for submitting the form.';
        form.replaceWith(thanks);
        if (options.onFormSubmitted && !settings.noCallback) options.onFormSubmitted(form, { redirectUrl: '', submissionValues: asObject });
        window.postMessage({ type: 'hsFormCallback', eventName: 'onFormSubmitted', id: options.formId, data: values }, '*');
      }, settings.submitDelayMs || 0);
    });
    target.appendChild(form);
    window.__fakeHubSpotCreated = (window.__fakeHubSpotCreated || 0) + 1;
    if (options.onFormReady) options.onFormReady(form);
    window.postMessage({ type: 'hsFormCallback', eventName: 'onFormReady', id: options.formId }, '*');
  }

  window.hbspt = { forms: { create: create } };
})();

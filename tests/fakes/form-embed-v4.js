/*
 * Stand-in for HubSpot's v4 form embed, https://js.hsforms.net/forms/embed/{portalId}.js (the embed
 * of forms made in HubSpot's updated forms editor), served through Playwright's request
 * interception and to the bench. It keeps the contract HubSpot documents in "Global form events"
 * (https://developers.hubspot.com/docs/api-reference/latest/marketing/forms/global-form-events):
 *  - when it loads, it renders every `.hs-form-frame[data-form-id][data-portal-id]` of the page, in an
 *    iframe as the real embed does, so the page cannot read the form's inputs;
 *  - it fires `CustomEvent`s on `window`: `hs-form-event:on-ready` once a form is rendered, and on
 *    submit `hs-form-event:on-submission:success` or `hs-form-event:on-submission:failed`, each with
 *    `detail: { formId, instanceId }`;
 *  - `window.HubSpotFormsV4` has `getForms()` and `getFormFromEvent(event)`; a form has `getFormId()`,
 *    `getInstanceId()`, `getFormFieldValues()` (a promise of `[{ name, value }]`, names such as
 *    `0-1/email`) and `setFieldValue(name, value)`.
 * A failed submission keeps the form and shows HubSpot's error inside the frame. Tests steer it
 * with window.__fakeHubSpotV4 before page scripts:
 *   { fields: [{ name, label, type, options }], fail: true, submitDelayMs: 0 }
 */
(() => {
  var defaults = [
    { name: '0-1/full_name', label: 'Full name', type: 'text' },
    { name: '0-1/email', label: 'Email', type: 'email' },
    { name: '0-1/child_full_name', label: "Child's full name", type: 'text' },
    { name: '0-1/child_grade', label: "Child's grade", type: 'text' },
    { name: '0-1/school_name', label: 'School name', type: 'text' },
    { name: '0-1/school_contact_name', label: 'School contact name', type: 'text' },
    { name: '0-1/school_contact_email', label: 'School contact email', type: 'email' },
    { name: '0-1/role_to_student', label: 'Role to student', type: 'text' },
    { name: '0-1/state', label: 'State', type: 'text' },
    { name: '0-1/city', label: 'City', type: 'text' },
    {
      name: '0-1/choose_how_to_send_your_email',
      label: 'Choose how to send your email',
      type: 'select',
      options: ['I will send it myself', 'Send via our platform'],
    },
    { name: '0-1/referral_source', label: '', type: 'hidden' },
  ];
  var instances = [];
  var font = 'font: 16px/1.5 system-ui, sans-serif; color: #1f2937;';

  function fire(name, instance) {
    window.dispatchEvent(new CustomEvent(name, { detail: { formId: instance.formId, instanceId: instance.instanceId } }));
  }

  function render(frame, index) {
    var settings = window.__fakeHubSpotV4 || {};
    var formId = frame.getAttribute('data-form-id');
    var iframe = document.createElement('iframe');
    iframe.className = 'hs-form-iframe';
    iframe.title = 'Form';
    iframe.style.cssText = 'display: block; width: 100%; border: 0; height: 0;';
    frame.appendChild(iframe);
    var doc = iframe.contentDocument;
    doc.body.style.cssText = `margin: 0; ${font}`;
    var resize = () => {
      iframe.style.height = `${doc.documentElement.scrollHeight}px`;
    };

    var form = doc.createElement('form');
    form.className = 'hsfc-Form';
    form.noValidate = true;
    var inputs = {};
    (settings.fields || defaults).forEach((field, position) => {
      var input;
      if (field.type === 'select') {
        input = doc.createElement('select');
        field.options.forEach((option) => {
          var el = doc.createElement('option');
          el.value = option;
          el.textContent = option;
          input.appendChild(el);
        });
      } else {
        input = doc.createElement('input');
        input.type = field.type;
      }
      input.name = field.name;
      input.id = `field-${position}`;
      inputs[field.name] = input;
      if (field.type === 'hidden') {
        form.appendChild(input);
        return;
      }
      input.style.cssText = `display: block; box-sizing: border-box; width: 100%; padding: 8px; border: 1px solid #9ca3af; border-radius: 4px; ${font}`;
      var label = doc.createElement('label');
      label.htmlFor = input.id;
      label.textContent = field.label;
      var row = doc.createElement('div');
      row.style.cssText = 'margin-bottom: 12px;';
      row.appendChild(label);
      row.appendChild(input);
      form.appendChild(row);
    });
    var error = doc.createElement('p');
    error.setAttribute('role', 'alert');
    error.style.cssText = 'color: #b91c1c; margin: 0 0 12px;';
    form.appendChild(error);
    var submit = doc.createElement('button');
    submit.type = 'submit';
    submit.textContent = 'Submit';
    submit.style.cssText = `padding: 10px 20px; border: 0; border-radius: 4px; background: #ff7a59; color: #fff; ${font}`;
    form.appendChild(submit);
    doc.body.appendChild(form);

    var read = () => Object.keys(inputs).map((name) => ({ name: name, value: inputs[name].value }));
    var submitted = null;
    var instance = {
      formId: formId,
      instanceId: `fake-instance-${instances.length + 1}`,
      api: {
        getFormId: () => formId,
        getInstanceId: () => instance.instanceId,
        getFormFieldValues: () => Promise.resolve(submitted || read()),
        setFieldValue: (name, value) => {
          if (inputs[name]) inputs[name].value = value;
        },
      },
    };
    instances.push(instance);

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      var values = read();
      setTimeout(() => {
        if (window.__fakeHubSpotV4?.fail) {
          error.textContent = 'We could not submit the form. Please try again.';
          resize();
          fire('hs-form-event:on-submission:failed', instance);
          return;
        }
        submitted = values;
        var thanks = doc.createElement('p');
        thanks.className = 'hsfc-PostSubmit';
        thanks.textContent = 'Thanks for submitting the form.';
        form.replaceWith(thanks);
        resize();
        fire('hs-form-event:on-submission:success', instance);
      }, settings.submitDelayMs || 0);
    });

    resize();
    window.__fakeHubSpotV4Rendered = (window.__fakeHubSpotV4Rendered || 0) + 1;
    // The real embed reports readiness after rendering, asynchronously.
    setTimeout(
      () => {
        fire('hs-form-event:on-ready', instance);
      },
      10 * (index + 1),
    );
  }

  window.HubSpotFormsV4 = {
    getForms: () => instances.map((instance) => instance.api),
    getFormFromEvent: (event) => {
      var detail = event?.detail || {};
      for (var i = 0; i < instances.length; i++) {
        if (instances[i].instanceId === detail.instanceId) return instances[i].api;
      }
      return null;
    },
  };

  Array.prototype.forEach.call(document.querySelectorAll('.hs-form-frame[data-form-id][data-portal-id]'), render);
})();

/** The §8 messages of the email flow, verbatim. */
export const emailMessages = {
  copied: { title: 'Copied!', description: 'Email content copied to clipboard.' },
  copyFailed: { title: 'Error', description: 'Failed to copy to clipboard. Please try again.', variant: 'destructive' },
  sent: {
    title: 'Email Sent Successfully!',
    description: "Your email has been sent via our platform. We'll handle the follow-up process.",
    duration: 5000,
  },
  sendFailed: {
    title: 'Error',
    description: 'Failed to send email via platform. Please try copying the content instead.',
    variant: 'destructive',
  },
  formSubmitted: { title: 'Form Submitted Successfully!', description: "Thank you for your submission. We'll be in touch soon." },
} as const;

/** Raised by the booking page's lookup when the CRM search is not ok (§8). */
export const crmErrors = {
  search: 'Failed to search for contact',
} as const;

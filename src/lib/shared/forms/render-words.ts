/**
 * The words the form renderer (render.ts) adds around a definition's own, in each language of the
 * site; apart from it so that the enhanced form's script reads them without the renderer.
 */
import type { Locale } from '../../../config/locales';

/** The words the renderer adds around a definition's own, in each language of the site. */
export const renderWords = {
  en: {
    optional: '(optional)',
    required: 'Fields marked with <span aria-hidden="true">*</span><span class="sr-only">an asterisk</span> are required.',
    choose: 'Please choose',
    findSchool: 'Find your school in the list of schools we know',
    honeypot: 'Leave this field empty',
    consentToProcess: 'I agree to allow this organisation to store and process my personal data.',
    submit: 'Submit',
    success: 'Thank you! Your submission has been received.',
    ifChose: (choices: string[], label: string) => `Answer this if you chose ${choices.map((choice) => `"${choice}"`).join(' or ')} for "${label}".`,
    ifFilled: (label: string) => `Answer this if you filled in "${label}".`,
    ifApplies: (label: string) => `Answer this only if it applies to your answer to "${label}".`,
    letterLanguage: 'Language of your letter',
    letterLanguageHelp: 'The school’s leadership reads English; you may also send it in Spanish.',
    letterLanguages: { en: 'English (for the school’s leadership)', es: 'Spanish' },
  },
  es: {
    optional: '(opcional)',
    required: 'Los campos marcados con <span aria-hidden="true">*</span><span class="sr-only">un asterisco</span> son obligatorios.',
    choose: 'Elija una opción',
    findSchool: 'Busque su escuela en la lista de escuelas que conocemos',
    honeypot: 'Deje este campo vacío',
    consentToProcess: 'Acepto que esta organización guarde y trate mis datos personales.',
    submit: 'Enviar',
    success: '¡Gracias! Recibimos su formulario.',
    ifChose: (choices: string[], label: string) => `Responda esto si eligió ${choices.map((choice) => `"${choice}"`).join(' o ')} en "${label}".`,
    ifFilled: (label: string) => `Responda esto si llenó "${label}".`,
    ifApplies: (label: string) => `Responda esto solo si corresponde a su respuesta en "${label}".`,
    letterLanguage: 'Idioma de su carta',
    letterLanguageHelp: 'La dirección de la escuela lee en inglés; también puede enviarla en español. Usted verá la carta antes de que se envíe.',
    letterLanguages: { en: 'Inglés (para la dirección de la escuela)', es: 'Español' },
  },
} satisfies Record<Locale, Record<string, unknown>>;

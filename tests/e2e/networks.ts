/**
 * Requests to the site from chosen networks: each leaves from a loopback address of its own (all
 * of 127/8 reaches the local server, and a Netlify function sees it as `context.ip`), for the specs
 * that need several networks (a parents' evening on one Wi-Fi, a burst from one /24).
 */
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { baseURL } from '../../playwright.config';

/** The id of the email form's definition, as the build wrote them. */
export const emailFormId = () => {
  const definitions = JSON.parse(readFileSync('dist/api/form-definitions.json', 'utf8')) as Record<string, { purpose: string }>;
  return Object.entries(definitions).find(([, definition]) => definition.purpose === 'emailGenerator')![0];
};

/** A request to the site leaving from one loopback address: the network the site sees (`context.ip`). */
export function from(address: string, method: string, path: string, body: string, type: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, baseURL);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: address,
        headers: { 'content-type': type, accept: 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The email form sent from one network (`from`): a parent's letter to a school, to be sent by the
 * parent ("I will send it myself"), with their own words when given. The draft it made is in the
 * answer's `draft` (201).
 */
export function sendEmailForm(
  address: string,
  parent: string,
  school: { name: string; email: string },
  ownWords?: string,
): Promise<{ status: number; text: string }> {
  const body = {
    full_name: 'Ana Lopez',
    email: parent,
    child_full_name: 'Maya Lopez',
    child_grade: '5',
    school_name: school.name,
    school_contact_name: 'Dr. Patel',
    school_contact_email: school.email,
    choose_how_to_send_your_email: 'I will send it myself',
    ...(ownWords === undefined ? {} : { _own_words: ownWords }),
    _page: '/lead-the-change',
  };
  return from(address, 'POST', `/api/forms/${emailFormId()}`, JSON.stringify(body), 'application/json');
}

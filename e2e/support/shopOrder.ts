/**
 * The fixture shop's order (#17, `e2e/fixtures/pages/replay-shop.html`): log in, fill the details and the order
 * across two pages, read the confirmation number. One place for the snippet that replays it and for the steps a
 * scripted model takes on each page, so the e2e tests and the replay benchmark run the same errand.
 */
import type { ScriptedCall, Turn } from '../../test/support/fake-api/turns.ts';
import { refIn } from '../page-tools.helpers.ts';
import { call, reading } from './modelTurns.ts';

/** The shop's address on a fixture-page server. */
export const shopUrl = (origin: string): string => `${origin}/replay-shop.html`;

/**
 * Config YAML with the snippet `shop` that replays the whole order: every field a parameter whose default is the
 * value the scripted model types (the url's default is `url`); the password is required.
 */
export function shopSnippetYaml(url: string): string {
  return `snippets:
  shop:
    description: Order in the fixture shop
    params:
      url: {default: "${url}"}
      email: {default: "ada@example.com"}
      password: {required: true}
      full_name: {default: "Ada Lovelace"}
      company: {default: "Acme Ltd"}
      product: {default: "Widget"}
      quantity: {default: "12"}
    body: |
      tabs.navigate(url="{{ url }}")
      dom.type(label="Email", text="{{ email }}")
      dom.type(label="Password", text="{{ password }}")
      dom.click(role="button", name="Log in")
      dom.type(label="Full name", text="{{ full_name }}")
      dom.type(label="Company", text="{{ company }}")
      dom.click(role="button", name="Next")
      dom.select(label="Product", value="{{ product }}")
      dom.type(label="Quantity", text="{{ quantity }}")
      dom.click(role="button", name="Place order")
      dom.text()
`;
}

/** What the scripted model does on each page of the shop, by refs from the snapshot it just read. */
export const shopSteps = {
  signIn: (s: string): ScriptedCall[] => [
    call('dom__type', { ref: refIn(s, 'textbox "Email"'), text: 'ada@example.com' }),
    call('dom__type', { ref: refIn(s, 'textbox "Password"'), text: 'hunter2' }),
    call('dom__click', { ref: refIn(s, 'button "Log in"') }),
  ],
  details: (s: string): ScriptedCall[] => [
    call('dom__type', { ref: refIn(s, 'textbox "Full name"'), text: 'Ada Lovelace' }),
    call('dom__type', { ref: refIn(s, 'textbox "Company"'), text: 'Acme Ltd' }),
    call('dom__click', { ref: refIn(s, 'button "Next"') }),
  ],
  order: (s: string): ScriptedCall[] => [
    call('dom__select', { ref: refIn(s, 'combobox "Product"'), value: 'Widget' }),
    call('dom__type', { ref: refIn(s, 'textbox "Quantity"'), text: '12' }),
    call('dom__click', { ref: refIn(s, 'button "Place order"') }),
  ],
};

/** Turns that answer a snapshot of each shop page with that page's steps (`times`: how many orders). */
export const shopTurns = {
  signIn: (times?: number): Turn => reading(/^Page snapshot[\s\S]*Sign in/, shopSteps.signIn, { times }),
  details: (times?: number): Turn => reading(/^Page snapshot[\s\S]*Your details/, shopSteps.details, { times }),
  order: (times?: number): Turn => reading(/^Page snapshot[\s\S]*Your order/, shopSteps.order, { times }),
};

/**
 * A labelled set of requests a user writes (issue #42), written from how people ask, not from the scope rules'
 * word lists: varied phrasing, several languages and the tricky ones ("reply to the last email", "clear my cart",
 * "unsubscribe me", "check out", "just read, don't change anything"). Each has the committing kinds it asks for
 * (`read` and `fill` are in every scope). Used by bench/taskScope.bench.ts to score the rules and, when a model is
 * reachable, the model option (src/agent/scopeModel.ts).
 *
 * Labelling rules: a kind is asked for when doing what the user said needs it. "Check out" and "place the order"
 * buy; "unsubscribe me" from a mailing list sends (a form or a click that tells the sender) and changes settings
 * — labelled settings; "clear my cart" deletes; "archive" moves mail: labelled delete (it removes from the inbox,
 * the same question a user expects); "RSVP yes" sends; "save this draft" changes nothing but the page's own draft:
 * none; "add to cart" is no purchase yet: none.
 */
import type { EffectKind } from '../src/shared/taskScope.ts';

export const LABELLED_REQUESTS: readonly [string, EffectKind[]][] = [
  // Read only, with committing words nearby (the false-alarm side).
  ['Summarise my inbox.', []],
  ['just read, don’t change anything', []],
  ['Look through my orders and tell me which one has not shipped yet', []],
  ['What does the delete button on this page do?', []],
  ['Tell me how to turn on two-factor authentication, but don’t do it', []],
  ['Which emails did Bob send me last week?', []],
  ['How much would it cost to buy the blue one?', []],
  ['Show me what is in my cart', []],
  ['Is there a newer version I could download?', []],
  ['Read the terms of service and list anything about cancelling', []],
  ['find the forum thread about the printer driver', []],
  ['what’s the status of my refund', []],
  ['Add the red mug to my cart', []],
  ['Fill in the shipping form with my home address but don’t submit it', []],
  ['Draft a reply to Carol but let me check it before it goes out', []],
  ['Zeig mir meine letzten Bestellungen', []],
  ['Résume cette page en trois points', []],
  ['¿Qué dice el último correo de Ana?', []],
  ['Leggi le recensioni e dimmi se vale la pena', []],
  // Send / post.
  ['reply to the last email', ['send']],
  ['Answer Dave’s question about the invoice', ['send']],
  ['post this on the forum', ['send']],
  ['Leave a 5-star review for the coffee grinder', ['send']],
  ['Tell Sam I’ll be late via the team chat', ['send']],
  ['RSVP yes to the party invitation', ['send']],
  ['Write back to the landlord saying the heater is fixed', ['send']],
  ['Email the report to finance@acme.example', ['send']],
  ['Message my sister happy birthday on WhatsApp web', ['send']],
  ['Submit the contact form with my question about returns', ['send']],
  ['Forward the boarding pass to Julia', ['send']],
  ['Antworte Peter, dass ich morgen Zeit habe', ['send']],
  ['Réponds à Marie que je suis d’accord', ['send']],
  ['Envía un mensaje a Luis diciendo que llego tarde', ['send']],
  ['Scrivi a Giulia che la riunione è spostata', ['send']],
  // Buy / pay.
  ['check out', ['buy']],
  ['Place the order for the items in my cart', ['buy']],
  ['Get me the cheapest HDMI cable and have it delivered tomorrow', ['buy']],
  ['Renew my subscription', ['buy']],
  ['Pay the outstanding invoice from Acme', ['buy']],
  ['Tip the driver $5', ['buy']],
  ['Grab two tickets for Saturday’s show', ['buy']],
  ['Kauf die günstigste Variante', ['buy']],
  ['Commande deux paquets de café', ['buy']],
  ['Paga la factura de la luz', ['buy']],
  // Delete.
  ['clear my cart', ['delete']],
  ['archive everything from Bob', ['delete']],
  ['Empty the trash', ['delete']],
  ['Get rid of all the promotional emails', ['delete']],
  ['Cancel my 3pm meeting', ['delete']],
  ['Take the old lamp listing down', ['delete']],
  ['Wipe my search history on this site', ['delete']],
  ['Lösche alle Mails von Newsletter', ['delete']],
  ['Supprime les brouillons', ['delete']],
  ['Elimina la foto del perfil', ['delete']],
  // Settings.
  ['unsubscribe me', ['settings']],
  ['Turn off email notifications', ['settings']],
  ['Make my profile private', ['settings']],
  ['Set up an out-of-office reply until Monday', ['settings']],
  ['Change my shipping address to 12 Oak Street', ['settings']],
  ['Switch the site to dark mode and save it', ['settings']],
  ['Stell die Sprache auf Deutsch um', ['settings']],
  ['Active la vérification en deux étapes', ['settings']],
  // Download.
  ['Grab the PDF of my March statement', ['download']],
  ['Save all the attachments from Tom’s email to my computer', ['download']],
  ['Export my contacts', ['download']],
  ['Lade die Rechnung herunter', ['download']],
  // Two kinds.
  ['Buy the book and email Anna the receipt', ['send', 'buy']],
  ['Delete the duplicate and reply to Mark that it is sorted', ['send', 'delete']],
  ['Cancel my order and write to support asking for a refund', ['send', 'delete']],
];

/**
 * Held out: written after the rules were fixed on the set above and never used to change them, so the rules' score
 * here is the one that says something about requests they were not tuned on.
 */
export const HELD_OUT_REQUESTS: readonly [string, EffectKind[]][] = [
  ['Can you see if Priya replied to my message?', []],
  ['Go through my notifications and summarise them', []],
  ['Open the settings page and tell me what plan I am on', []],
  ['Compare prices for the two blenders in my cart', []],
  ['Let Omar know the meeting moved to 4', ['send']],
  ['Say thanks to everyone in the thread', ['send']],
  ['Upvote the top answer and leave a thank-you comment', ['send']],
  ['Pick up the cheapest seat on the 9:15 flight', ['buy']],
  ['Complete the purchase', ['buy']],
  ['Bin the spam', ['delete']],
  ['Unfollow all the brand accounts', ['settings']],
  ['Mute this conversation', ['settings']],
  ['Remove my card from the account', ['delete']],
  ['Stuur Anne een bericht dat ik later kom', ['send']],
  ['Annule ma réservation de vendredi', ['delete']],
  ['Scarica tutte le fatture del 2025', ['download']],
  ['Save the receipt as PDF', ['download']],
  ['Block this sender', ['settings']],
];

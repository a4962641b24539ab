import { pickText, t } from "../../core/culture.ts";
import type { LocalizedText, OperationContext } from "../../core/types.ts";

/**
 * Localized `detail` texts of the problems thrown by the entrance, external-entrance, connections, survey, assets
 * and webhooks sections (the engine localizes titles; details are ours). `{name}` placeholders are filled in.
 */
export const DETAILS = {
  noGate: t(
    "Den Eingang {id} gibt es nicht.",
    "L'accès {id} n'existe pas.",
    "Il varco {id} non esiste.",
    "There is no gate {id}.",
  ),
  noEvent: t(
    "Die Veranstaltung {id} gibt es nicht.",
    "L'événement {id} n'existe pas.",
    "L'evento {id} non esiste.",
    "There is no event {id}.",
  ),
  noVenue: t(
    "Den Veranstaltungsort {id} gibt es nicht.",
    "Le lieu {id} n'existe pas.",
    "Il luogo {id} non esiste.",
    "There is no venue {id}.",
  ),
  noImport: t(
    "Den Import {id} gibt es nicht.",
    "L'import {id} n'existe pas.",
    "L'importazione {id} non esiste.",
    "There is no import {id}.",
  ),
  noBadge: t(
    "Den Badge {id} gibt es nicht.",
    "Le badge {id} n'existe pas.",
    "Il badge {id} non esiste.",
    "There is no badge {id}.",
  ),
  noContact: t(
    "Der Badge {badge} hat keinen Kontakt {id}.",
    "Le badge {badge} n'a pas de contact {id}.",
    "Il badge {badge} non ha il contatto {id}.",
    "Badge {badge} has no contact {id}.",
  ),
  noSurvey: t(
    "Die Umfrage {id} gibt es nicht.",
    "L'enquête {id} n'existe pas.",
    "Il sondaggio {id} non esiste.",
    "There is no survey {id}.",
  ),
  noSubscription: t(
    "Das Webhook-Abonnement {id} gibt es nicht.",
    "L'abonnement webhook {id} n'existe pas.",
    "La sottoscrizione webhook {id} non esiste.",
    "There is no webhook subscription {id}.",
  ),
  noDelivery: t(
    "Die Webhook-Zustellung {id} gibt es nicht.",
    "La livraison webhook {id} n'existe pas.",
    "La consegna webhook {id} non esiste.",
    "There is no webhook delivery {id}.",
  ),
  noImage: t(
    "Das Bild {id} gibt es nicht.",
    "L'image {id} n'existe pas.",
    "L'immagine {id} non esiste.",
    "There is no image {id}.",
  ),
  noIcon: t(
    "Das Symbol {id} gibt es nicht.",
    "L'icône {id} n'existe pas.",
    "L'icona {id} non esiste.",
    "There is no icon {id}.",
  ),
  noTicket: t(
    "Das Ticket {id} gibt es nicht.",
    "Le billet {id} n'existe pas.",
    "Il biglietto {id} non esiste.",
    "There is no ticket {id}.",
  ),
  noOrder: t(
    "Die Bestellung {id} gibt es nicht.",
    "La commande {id} n'existe pas.",
    "L'ordine {id} non esiste.",
    "There is no order {id}.",
  ),
  future: t(
    "{field} liegt in der Zukunft; die Zeit darf nicht nach dem Empfang liegen.",
    "{field} est dans le futur ; l'heure ne peut pas être postérieure à la réception.",
    "{field} è nel futuro; l'ora non può essere successiva alla ricezione.",
    "{field} lies in the future; it must not be later than the time of receipt.",
  ),
  gateClosed: t(
    "Der Eingang {id} ist geschlossen.",
    "L'accès {id} est fermé.",
    "Il varco {id} è chiuso.",
    "Gate {id} is closed.",
  ),
  gateExitOnly: t(
    "Der Eingang {id} erfasst nur Ausgänge; verwenden Sie POST /entrance/v1/gates/{id}/exits.",
    "L'accès {id} n'enregistre que des sorties ; utilisez POST /entrance/v1/gates/{id}/exits.",
    "Il varco {id} registra solo uscite; usare POST /entrance/v1/gates/{id}/exits.",
    "Gate {id} records exits only; use POST /entrance/v1/gates/{id}/exits.",
  ),
  gateEntryOnly: t(
    "Der Eingang {id} erfasst nur Eintritte.",
    "L'accès {id} n'enregistre que des entrées.",
    "Il varco {id} registra solo ingressi.",
    "Gate {id} records entries only.",
  ),
  badPattern: t(
    "Das Muster ist kein gültiger regulärer Ausdruck.",
    "Le motif n'est pas une expression régulière valide.",
    "Il modello non è un'espressione regolare valida.",
    "The pattern is not a valid regular expression.",
  ),
  categoryExists: t(
    "Eine Kategorie «{name}» gibt es bereits ({id}).",
    "Une catégorie « {name} » existe déjà ({id}).",
    "Una categoria «{name}» esiste già ({id}).",
    "A category named “{name}” already exists ({id}).",
  ),
  categoryLimit: t(
    "Dieser Mock hält höchstens {max} eigene Kategorien pro Session (Seed `entrance.maxCategories`).",
    "Ce mock garde au plus {max} catégories personnalisées par session (seed `entrance.maxCategories`).",
    "Questo mock tiene al massimo {max} categorie personalizzate per sessione (seed `entrance.maxCategories`).",
    "This mock keeps at most {max} custom categories per session (seed `entrance.maxCategories`).",
  ),
  toBeforeFrom: t(
    "to muss nach from liegen.",
    "to doit être postérieur à from.",
    "to deve essere successivo a from.",
    "to must be after from.",
  ),
  badCursor: t(
    "Unbekannter oder abgelaufener Cursor; beginnen Sie ohne ihn neu.",
    "Curseur inconnu ou expiré ; recommencez sans lui.",
    "Cursore sconosciuto o scaduto; ricominciare senza.",
    "Unknown or expired cursor; start again without it.",
  ),
  surveyClosed: t(
    "Die Umfrage {id} ist geschlossen und nimmt keine Antworten mehr an.",
    "L'enquête {id} est close et n'accepte plus de réponses.",
    "Il sondaggio {id} è chiuso e non accetta più risposte.",
    "Survey {id} is closed and accepts no more responses.",
  ),
  webhookUrl: t(
    "Webhook-URLs müssen https verwenden (http nur für localhost, 127.0.0.1 und [::1]).",
    "Les URL de webhook doivent utiliser https (http seulement pour localhost, 127.0.0.1 et [::1]).",
    "Gli URL dei webhook devono usare https (http solo per localhost, 127.0.0.1 e [::1]).",
    "Webhook URLs must use https (http only for localhost, 127.0.0.1 and [::1]).",
  ),
  noExample: t(
    "Der Vertrag enthält kein Beispiel für {type}.",
    "Le contrat ne contient pas d'exemple pour {type}.",
    "Il contratto non contiene un esempio per {type}.",
    "The contract has no example payload for {type}.",
  ),
  subscriptionDeleted: t(
    "Das Abonnement der Zustellung {id} wurde gelöscht.",
    "L'abonnement de la livraison {id} a été supprimé.",
    "La sottoscrizione della consegna {id} è stata eliminata.",
    "The subscription of delivery {id} was deleted.",
  ),
  subscriptionDisabled: t(
    "Das Abonnement {id} ist deaktiviert; aktivieren Sie es vor dem erneuten Senden.",
    "L'abonnement {id} est désactivé ; activez-le avant de renvoyer.",
    "La sottoscrizione {id} è disattivata; attivarla prima di reinviare.",
    "Subscription {id} is disabled; enable it before replaying.",
  ),
  ticketCancelled: t(
    "Das Ticket {id} wurde storniert.",
    "Le billet {id} a été annulé.",
    "Il biglietto {id} è stato annullato.",
    "Ticket {id} was cancelled.",
  ),
} satisfies Record<string, LocalizedText>;

/** The culture's text of a detail, placeholders filled. */
export function detail(
  ctx: Pick<OperationContext, "culture">,
  key: keyof typeof DETAILS,
  vars: Record<string, string | number> = {},
): string {
  return pickText(DETAILS[key], ctx.culture).replace(/\{(\w+)\}/g, (_, k: string) =>
    String(vars[k] ?? `{${k}}`),
  );
}

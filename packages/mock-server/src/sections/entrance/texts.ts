import { t } from "../../core/culture.ts";
import type { Culture, LocalizedText } from "../../core/types.ts";

/** Localized gate-display sentences. `{time}` and `{when}` are filled in with Intl for the culture. */
export const REASON_TEXTS: Record<string, LocalizedText> = {
  admitted: t(
    "Willkommen! Eintritt gewährt.",
    "Bienvenue ! Entrée autorisée.",
    "Benvenuti! Ingresso consentito.",
    "Welcome! Entry granted.",
  ),
  unknown_quicode: t(
    "Unbekannter Code. Bitte wenden Sie sich an die Kasse.",
    "Code inconnu. Veuillez vous adresser à la caisse.",
    "Codice sconosciuto. Rivolgersi alla cassa.",
    "Unknown code. Please go to the box office.",
  ),
  already_used: t(
    "Dieses Ticket wurde bereits um {time} Uhr gescannt.",
    "Ce billet a déjà été scanné à {time}.",
    "Questo biglietto è già stato scansionato alle {time}.",
    "This ticket was already scanned at {time}.",
  ),
  wrong_gate: t(
    "Dieses Ticket gilt nicht für diesen Eingang.",
    "Ce billet n'est pas valable pour cette entrée.",
    "Questo biglietto non è valido per questo ingresso.",
    "This ticket is not valid at this gate.",
  ),
  not_yet_valid: t(
    "Dieses Ticket ist erst ab {when} gültig.",
    "Ce billet n'est valable qu'à partir du {when}.",
    "Questo biglietto è valido solo dal {when}.",
    "This ticket is only valid from {when}.",
  ),
  expired: t(
    "Dieses Ticket ist seit {when} nicht mehr gültig.",
    "Ce billet n'est plus valable depuis le {when}.",
    "Questo biglietto non è più valido dal {when}.",
    "This ticket expired on {when}.",
  ),
  cancelled: t(
    "Dieses Ticket wurde storniert.",
    "Ce billet a été annulé.",
    "Questo biglietto è stato annullato.",
    "This ticket has been cancelled.",
  ),
  exited: t(
    "Auf Wiedersehen! Wiedereintritt mit demselben Ticket möglich.",
    "Au revoir ! Vous pouvez revenir avec le même billet.",
    "Arrivederci! Rientro possibile con lo stesso biglietto.",
    "Goodbye! Re-entry is possible with the same ticket.",
  ),
  not_inside: t(
    "Dieses Ticket ist nicht eingecheckt.",
    "Ce billet n'est pas enregistré à l'entrée.",
    "Questo biglietto non risulta entrato.",
    "This ticket is not checked in.",
  ),
};

export const UNCATEGORIZED = t("Ohne Kategorie", "Sans catégorie", "Senza categoria", "Uncategorized");

/** Times at the gate are shown in Swiss local time. */
const TIME_ZONE = "Europe/Zurich";

/** Fill a reason sentence for the culture; `at` is the instant used for `{time}` / `{when}`. */
export function reasonText(key: string, culture: Culture, at?: number): string {
  const template = (REASON_TEXTS[key] as LocalizedText)[culture];
  if (at === undefined) return template;
  const time = new Intl.DateTimeFormat(culture, {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: TIME_ZONE,
  }).format(at);
  const when = new Intl.DateTimeFormat(culture, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: TIME_ZONE,
  }).format(at);
  return template.replace("{time}", time).replace("{when}", when);
}

import type en from "./en-GB";

/** Widget texts, Swiss Standard German (ss, not ß). Namespace `core`: the first load (shell, catalogue, errors). */
export default {
  shop: {
    label: "Ticketshop",
    loading: "Wird geladen…",
    progress: "Schritt {{current}} von {{total}}",
    stepNow: "{{progress}}: {{name}}",
  },
  steps: {
    events: "Veranstaltungen",
    event: "Tickets",
    cart: "Warenkorb",
    details: "Ihre Angaben",
    payment: "Zahlung",
    confirmation: "Bestätigung",
  },
  events: {
    heading: "Veranstaltungen",
    filters: "Veranstaltungen filtern",
    when: "Datum",
    anyDate: "Alle Daten",
    venue: "Ort",
    allVenues: "Alle Orte",
    reset: "Filter zurücksetzen",
    empty: "Keine Veranstaltungen entsprechen Ihren Filtern.",
    choose: "Tickets wählen",
    chooseFor: "Tickets wählen für {{name}}",
    soldOut: "Ausverkauft",
    from: "ab {{price}}",
    more: "Weitere Veranstaltungen anzeigen",
    cart_one: "Warenkorb: {{count}} Ticket",
    cart_other: "Warenkorb: {{count}} Tickets",
    found_one: "{{count}} Veranstaltung",
    found_other: "{{count}} Veranstaltungen",
  },
  errors: {
    "not-found": "Dieses Angebot ist nicht mehr verfügbar.",
    "rate-limited": "Zu viele Anfragen. Bitte warten Sie einen Moment.",
    "session-expired": "Ihre Sitzung ist abgelaufen. Laden Sie die Seite neu, um fortzufahren.",
    network: "Keine Verbindung zum Shop. Prüfen Sie Ihre Internetverbindung und versuchen Sie es erneut.",
    timeout: "Der Shop antwortet im Moment zu langsam. Bitte versuchen Sie es gleich noch einmal.",
    generic: "Etwas ist schiefgegangen. Bitte versuchen Sie es erneut.",
    retry: "Erneut versuchen",
    events: "Zurück zu den Veranstaltungen",
    reference: "Referenz {{id}}",
  },
} satisfies typeof en;

import type en from "./en-GB";

/** Widget texts, Swiss Italian. Namespace `core`: the first load (shell, catalogue, errors). */
export default {
  shop: {
    label: "Biglietteria",
    loading: "Caricamento…",
    progress: "Passo {{current}} di {{total}}",
    stepNow: "{{progress}}: {{name}}",
  },
  steps: {
    events: "Eventi",
    event: "Biglietti",
    cart: "Carrello",
    details: "I suoi dati",
    payment: "Pagamento",
    confirmation: "Conferma",
  },
  events: {
    heading: "Eventi",
    filters: "Filtra gli eventi",
    when: "Data",
    anyDate: "Tutte le date",
    venue: "Luogo",
    allVenues: "Tutti i luoghi",
    reset: "Azzera i filtri",
    empty: "Nessun evento corrisponde ai filtri.",
    choose: "Scegli i biglietti",
    chooseFor: "Scegli i biglietti per {{name}}",
    soldOut: "Esaurito",
    from: "da {{price}}",
    more: "Mostra altri eventi",
    cart_one: "Carrello: {{count}} biglietto",
    cart_other: "Carrello: {{count}} biglietti",
    found_one: "{{count}} evento",
    found_other: "{{count}} eventi",
  },
  errors: {
    "not-found": "Questa offerta non è più disponibile.",
    "rate-limited": "Troppe richieste. Attenda un momento.",
    "session-expired": "La sessione è scaduta. Ricarichi la pagina per continuare.",
    network: "Nessuna connessione alla biglietteria. Controlli la connessione a Internet e riprovi.",
    timeout: "La biglietteria impiega troppo tempo a rispondere. Riprovi tra un momento.",
    generic: "Si è verificato un problema. Riprovi.",
    retry: "Riprova",
    events: "Torna agli eventi",
    reference: "Riferimento {{id}}",
  },
} satisfies typeof en;

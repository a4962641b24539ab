import type en from "./en-GB";

/** Widget texts, Swiss French. Namespace `core`: the first load (shell, catalogue, errors). */
export default {
  shop: {
    label: "Billetterie",
    loading: "Chargement…",
    progress: "Étape {{current}} sur {{total}}",
    stepNow: "{{progress}} : {{name}}",
  },
  steps: {
    events: "Événements",
    event: "Billets",
    cart: "Panier",
    details: "Vos coordonnées",
    payment: "Paiement",
    confirmation: "Confirmation",
  },
  events: {
    heading: "Événements",
    filters: "Filtrer les événements",
    when: "Date",
    anyDate: "Toutes les dates",
    venue: "Lieu",
    allVenues: "Tous les lieux",
    reset: "Réinitialiser les filtres",
    empty: "Aucun événement ne correspond à vos filtres.",
    choose: "Choisir des billets",
    chooseFor: "Choisir des billets pour {{name}}",
    soldOut: "Complet",
    from: "dès {{price}}",
    more: "Afficher plus d’événements",
    cart_one: "Panier : {{count}} billet",
    cart_other: "Panier : {{count}} billets",
    found_one: "{{count}} événement",
    found_other: "{{count}} événements",
  },
  errors: {
    "not-found": "Cette offre n’est plus disponible.",
    "rate-limited": "Trop de requêtes. Veuillez patienter un instant.",
    "session-expired": "Votre session a expiré. Rechargez la page pour continuer.",
    network: "Pas de connexion à la billetterie. Vérifiez votre connexion Internet et réessayez.",
    timeout: "La billetterie met trop de temps à répondre. Veuillez réessayer dans un instant.",
    generic: "Un problème est survenu. Veuillez réessayer.",
    retry: "Réessayer",
    events: "Retour aux événements",
    reference: "Référence {{id}}",
  },
} satisfies typeof en;

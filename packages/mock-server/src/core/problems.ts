import { cors } from "./cors.ts";
import { pickText, t } from "./culture.ts";
import { rawPath, withinMount } from "./target.ts";
import type { Culture, ErrorFormat, LocalizedText, MockRequest, MockResponse } from "./types.ts";

/** Localized problem+json responses (RFC 9457): the one shape every engine-made error takes. */
/** Sections that render errors their own way (BI: OData JSON) get the engine's problems for their paths converted. */

export const PROBLEM_BASE = "https://docs.entrada.dev/problems/";

export interface ProblemSpec {
  status: number;
  title: LocalizedText;
  /** Default detail when the thrower gives none. */
  detail: LocalizedText;
}

/** The problem catalogue of DECISIONS.md, with localized titles and default details. */
export const PROBLEMS: Record<string, ProblemSpec> = {
  "validation-error": {
    status: 400,
    title: t("Ungültige Anfrage", "Requête invalide", "Richiesta non valida", "Invalid request"),
    detail: t(
      "Die Anfrage entspricht nicht dem Vertrag. Siehe errors.",
      "La requête ne respecte pas le contrat. Voir errors.",
      "La richiesta non rispetta il contratto. Vedi errors.",
      "The request does not match the contract. See errors.",
    ),
  },
  "malformed-request": {
    status: 400,
    title: t("Fehlerhafte Anfrage", "Requête mal formée", "Richiesta malformata", "Malformed request"),
    detail: t(
      "Die Anfrage konnte nicht gelesen werden.",
      "La requête n'a pas pu être lue.",
      "Non è stato possibile leggere la richiesta.",
      "The request could not be read.",
    ),
  },
  unauthorized: {
    status: 401,
    title: t("Nicht authentifiziert", "Non authentifié", "Non autenticato", "Unauthorized"),
    detail: t(
      "Ein gültiges Bearer-Token ist erforderlich.",
      "Un jeton Bearer valide est requis.",
      "È richiesto un token Bearer valido.",
      "A valid bearer token is required.",
    ),
  },
  forbidden: {
    status: 403,
    title: t("Zugriff verweigert", "Accès refusé", "Accesso negato", "Forbidden"),
    detail: t(
      "Das Token hat nicht den erforderlichen Scope.",
      "Le jeton n'a pas la portée requise.",
      "Il token non ha lo scope richiesto.",
      "The token lacks the required scope.",
    ),
  },
  "not-found": {
    status: 404,
    title: t("Nicht gefunden", "Introuvable", "Non trovato", "Not found"),
    detail: t(
      "Die angefragte Ressource existiert nicht.",
      "La ressource demandée n'existe pas.",
      "La risorsa richiesta non esiste.",
      "The requested resource does not exist.",
    ),
  },
  "method-not-allowed": {
    status: 405,
    title: t("Methode nicht erlaubt", "Méthode non autorisée", "Metodo non consentito", "Method not allowed"),
    detail: t(
      "Diese Methode ist für diesen Pfad nicht erlaubt. Siehe Allow.",
      "Cette méthode n'est pas autorisée pour ce chemin. Voir Allow.",
      "Questo metodo non è consentito per questo percorso. Vedi Allow.",
      "This method is not allowed on this path. See Allow.",
    ),
  },
  "not-acceptable": {
    status: 406,
    title: t("Nicht annehmbar", "Non acceptable", "Non accettabile", "Not acceptable"),
    detail: t(
      "Keine der akzeptierten Darstellungen ist verfügbar.",
      "Aucune des représentations acceptées n'est disponible.",
      "Nessuna delle rappresentazioni accettate è disponibile.",
      "None of the accepted representations is available.",
    ),
  },
  "payload-too-large": {
    status: 413,
    title: t("Anfrage zu gross", "Requête trop volumineuse", "Richiesta troppo grande", "Payload too large"),
    detail: t(
      "Der Anfrageinhalt ist grösser als 1 MiB.",
      "Le contenu de la requête dépasse 1 Mio.",
      "Il contenuto della richiesta supera 1 MiB.",
      "The request body is larger than 1 MiB.",
    ),
  },
  "unsupported-media-type": {
    status: 415,
    title: t(
      "Nicht unterstützter Medientyp",
      "Type de média non pris en charge",
      "Tipo di media non supportato",
      "Unsupported media type",
    ),
    detail: t(
      "Dieser Content-Type wird hier nicht angenommen.",
      "Ce Content-Type n'est pas accepté ici.",
      "Questo Content-Type non è accettato qui.",
      "This Content-Type is not accepted here.",
    ),
  },
  "idempotency-key-in-use": {
    status: 409,
    title: t(
      "Idempotency-Key in Bearbeitung",
      "Idempotency-Key en cours d'utilisation",
      "Idempotency-Key in uso",
      "Idempotency key in use",
    ),
    detail: t(
      "Eine Anfrage mit diesem Idempotency-Key wird noch bearbeitet. Später erneut versuchen.",
      "Une requête avec cette Idempotency-Key est encore en cours. Réessayez plus tard.",
      "Una richiesta con questa Idempotency-Key è ancora in corso. Riprovare più tardi.",
      "A request with this idempotency key is still being processed. Retry later.",
    ),
  },
  "idempotency-key-reused": {
    status: 422,
    title: t(
      "Idempotency-Key wiederverwendet",
      "Idempotency-Key réutilisée",
      "Idempotency-Key riutilizzata",
      "Idempotency key reused",
    ),
    detail: t(
      "Dieser Idempotency-Key wurde bereits mit einem anderen Anfrageinhalt verwendet.",
      "Cette Idempotency-Key a déjà été utilisée avec un autre contenu.",
      "Questa Idempotency-Key è già stata usata con un altro contenuto.",
      "This idempotency key was already used with a different request body.",
    ),
  },
  conflict: {
    status: 409,
    title: t("Konflikt", "Conflit", "Conflitto", "Conflict"),
    detail: t(
      "Die Anfrage steht im Konflikt mit dem aktuellen Zustand.",
      "La requête est en conflit avec l'état actuel.",
      "La richiesta è in conflitto con lo stato attuale.",
      "The request conflicts with the current state.",
    ),
  },
  "sold-out": {
    status: 409,
    title: t("Ausverkauft", "Complet", "Esaurito", "Sold out"),
    detail: t(
      "Für diesen Slot sind keine Plätze mehr verfügbar.",
      "Il n'y a plus de places pour ce créneau.",
      "Non ci sono più posti per questa fascia.",
      "No seats are left for this slot.",
    ),
  },
  "insufficient-capacity": {
    status: 409,
    title: t("Zu wenige Plätze", "Places insuffisantes", "Posti insufficienti", "Insufficient capacity"),
    detail: t(
      "Es sind weniger Plätze verfügbar als angefragt.",
      "Moins de places sont disponibles que demandé.",
      "Sono disponibili meno posti di quelli richiesti.",
      "Fewer seats are available than requested.",
    ),
  },
  "hold-expired": {
    status: 409,
    title: t("Reservation abgelaufen", "Réservation expirée", "Prenotazione scaduta", "Hold expired"),
    detail: t(
      "Die Reservation der Plätze ist abgelaufen und sie sind nicht mehr verfügbar.",
      "La réservation des places a expiré et elles ne sont plus disponibles.",
      "La prenotazione dei posti è scaduta e non sono più disponibili.",
      "The seat hold expired and the seats are no longer available.",
    ),
  },
  "cart-locked": {
    status: 409,
    title: t("Warenkorb gesperrt", "Panier verrouillé", "Carrello bloccato", "Cart locked"),
    detail: t(
      "Der Warenkorb ist gesperrt und kann nicht geändert werden.",
      "Le panier est verrouillé et ne peut pas être modifié.",
      "Il carrello è bloccato e non può essere modificato.",
      "The cart is locked and cannot be changed.",
    ),
  },
  "voucher-unknown": {
    status: 422,
    title: t(
      "Unbekannter Gutscheincode",
      "Code promo inconnu",
      "Codice buono sconosciuto",
      "Unknown voucher code",
    ),
    detail: t(
      "Diesen Gutscheincode gibt es nicht.",
      "Ce code promo n'existe pas.",
      "Questo codice buono non esiste.",
      "There is no such voucher code.",
    ),
  },
  "voucher-expired": {
    status: 422,
    title: t("Gutschein abgelaufen", "Code promo expiré", "Buono scaduto", "Voucher expired"),
    detail: t(
      "Der Gutscheincode ist nicht mehr (oder noch nicht) gültig.",
      "Le code promo n'est plus (ou pas encore) valable.",
      "Il codice buono non è più (o non ancora) valido.",
      "The voucher code is no longer (or not yet) valid.",
    ),
  },
  "voucher-not-applicable": {
    status: 422,
    title: t(
      "Gutschein gilt nicht für diese Artikel",
      "Code promo non valable pour ces articles",
      "Buono non valido per questi articoli",
      "Voucher not valid for these articles",
    ),
    detail: t(
      "Der Gutscheincode gilt für keinen Artikel in diesem Warenkorb.",
      "Le code promo ne s'applique à aucun article de ce panier.",
      "Il codice buono non vale per nessun articolo di questo carrello.",
      "The voucher code is not valid for any article in this cart.",
    ),
  },
  "voucher-used-up": {
    status: 409,
    title: t("Gutschein aufgebraucht", "Code promo épuisé", "Buono esaurito", "Voucher used up"),
    detail: t(
      "Der Gutscheincode wurde so oft eingelöst, wie er darf.",
      "Le code promo a été utilisé autant de fois que permis.",
      "Il codice buono è stato usato tutte le volte consentite.",
      "The voucher code has been used as often as it may be.",
    ),
  },
  "cart-not-ready": {
    status: 409,
    title: t(
      "Warenkorb nicht bereit",
      "Panier pas prêt",
      "Carrello non pronto",
      "Cart not ready for checkout",
    ),
    detail: t(
      "Für den Checkout braucht der Warenkorb Artikel, einen Kunden und einen Zahlungsanbieter.",
      "Pour payer, le panier doit contenir des articles, un client et un prestataire de paiement.",
      "Per il checkout il carrello deve avere articoli, un cliente e un fornitore di pagamento.",
      "Checkout needs items, a customer and a payment provider on the cart.",
    ),
  },
  "payment-declined": {
    status: 402,
    title: t("Zahlung abgelehnt", "Paiement refusé", "Pagamento rifiutato", "Payment declined"),
    detail: t(
      "Die Zahlung wurde abgelehnt. Der Warenkorb ist wieder offen.",
      "Le paiement a été refusé. Le panier est de nouveau ouvert.",
      "Il pagamento è stato rifiutato. Il carrello è di nuovo aperto.",
      "The payment was declined. The cart is open again.",
    ),
  },
  unprocessable: {
    status: 422,
    title: t("Nicht verarbeitbar", "Impossible à traiter", "Non elaborabile", "Unprocessable request"),
    detail: t(
      "Die Anfrage ist gültig, kann aber nicht ausgeführt werden.",
      "La requête est valide mais ne peut pas être exécutée.",
      "La richiesta è valida ma non può essere eseguita.",
      "The request is valid but cannot be carried out.",
    ),
  },
  "rate-limited": {
    status: 429,
    title: t("Zu viele Anfragen", "Trop de requêtes", "Troppe richieste", "Too many requests"),
    detail: t(
      "Das Anfragelimit ist erreicht. Nach Retry-After erneut versuchen.",
      "La limite de requêtes est atteinte. Réessayez après Retry-After.",
      "Il limite di richieste è stato raggiunto. Riprovare dopo Retry-After.",
      "The rate limit is reached. Retry after Retry-After.",
    ),
  },
  "service-unavailable": {
    status: 503,
    title: t(
      "Dienst nicht verfügbar",
      "Service indisponible",
      "Servizio non disponibile",
      "Service unavailable",
    ),
    detail: t(
      "Der Dienst ist vorübergehend nicht verfügbar. Später erneut versuchen.",
      "Le service est temporairement indisponible. Réessayez plus tard.",
      "Il servizio è temporaneamente non disponibile. Riprovare più tardi.",
      "The service is temporarily unavailable. Retry later.",
    ),
  },
  "not-implemented": {
    status: 501,
    title: t("Nicht implementiert", "Non implémenté", "Non implementato", "Not implemented"),
    detail: t(
      "Der Mock implementiert diese Operation nicht.",
      "Le mock n'implémente pas cette opération.",
      "Il mock non implementa questa operazione.",
      "The mock does not implement this operation.",
    ),
  },
  "internal-error": {
    status: 500,
    title: t("Interner Fehler", "Erreur interne", "Errore interno", "Internal error"),
    detail: t(
      "Ein unerwarteter Fehler ist aufgetreten.",
      "Une erreur inattendue s'est produite.",
      "Si è verificato un errore imprevisto.",
      "An unexpected error occurred.",
    ),
  },
};

export interface FieldError {
  pointer: string;
  detail: string;
}

/** Thrown by handlers (via ctx.problem) and by the engine; turned into problem+json at the edge. */
export class ProblemError extends Error {
  readonly slug: string;
  readonly detail: string | undefined;
  readonly extensions: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Overrides the catalogue status (only for slugs not in the catalogue, e.g. a section-specific one). */
  readonly status: number | undefined;
  /** Field errors (`errors[]` of a validation problem). */
  readonly errors: FieldError[] | undefined;
  constructor(
    slug: string,
    detail?: string,
    extensions?: Record<string, unknown>,
    headers?: Record<string, string>,
    status?: number,
    errors?: FieldError[],
  ) {
    super(detail ?? slug);
    this.slug = slug;
    this.detail = detail;
    this.extensions = extensions;
    this.headers = headers;
    this.status = status;
    this.errors = errors;
  }
}

/**
 * A pipeline stage's problem: the stage throws it, and the engine's dispatch renders it once — localized in the
 * culture known at that point, with the request's path as `instance` and its rate-limit headers. Stages signal
 * problems only this way; what they return is always their value.
 */
export function stageProblem(
  slug: string,
  options: Pick<ProblemOptions, "detail" | "errors" | "headers" | "extensions" | "status"> = {},
): ProblemError {
  return new ProblemError(
    slug,
    options.detail,
    options.extensions,
    options.headers,
    options.status,
    options.errors,
  );
}

export function isProblemError(error: unknown): error is ProblemError {
  return error instanceof ProblemError;
}

export interface ProblemOptions {
  detail?: string | undefined;
  instance?: string;
  errors?: FieldError[] | undefined;
  headers?: Record<string, string> | undefined;
  extensions?: Record<string, unknown> | undefined;
  status?: number | undefined;
}

// `%` and every character outside printable ASCII and U+0080–U+FFFF: the C0 controls and DEL.
const UNPRINTABLE = /%|[^\x20-\x7e\u0080-\uffff]/g;

/**
 * A JSON Pointer with control characters (and `%`, so the encoding stays reversible) percent-encoded, e.g. a body
 * member named "a\nb" is `/body/a%0Ab`: the contract's pointers are single-line strings (DECISIONS.md).
 */
export function printablePointer(pointer: string): string {
  return pointer.replace(
    UNPRINTABLE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

/** Builds a localized problem+json response (RFC 9457), with CORS headers when `origin` is set. */
export function problemResponse(
  slug: string,
  culture: Culture,
  logId: string,
  origin: string | undefined,
  options: ProblemOptions = {},
): MockResponse {
  const spec = PROBLEMS[slug];
  const extensions = { ...options.extensions };
  let status = options.status ?? spec?.status;
  if (status === undefined) {
    status = typeof extensions.status === "number" ? extensions.status : 400;
  }
  delete extensions.status;
  const body: Record<string, unknown> = {
    type: `${PROBLEM_BASE}${slug}`,
    title: spec
      ? pickText(spec.title, culture)
      : slug.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase()),
    status,
    detail: options.detail ?? (spec ? pickText(spec.detail, culture) : slug),
    ...(options.instance !== undefined ? { instance: options.instance } : {}),
    logId,
    ...extensions,
  };
  if (options.errors && options.errors.length > 0)
    body.errors = options.errors.map((e) => ({ ...e, pointer: printablePointer(e.pointer) }));
  const response: MockResponse = {
    status,
    headers: {
      "content-type": "application/problem+json",
      "x-log-id": logId,
      "content-language": culture,
      vary: "Accept-Language",
      ...options.headers,
    },
    body: JSON.stringify(body),
  };
  return cors(response, origin);
}

/** The error format that owns `path` (below the base path), if any. */
export function errorFormatFor(formats: readonly ErrorFormat[], path: string): ErrorFormat | undefined {
  return formats.find((f) => path === f.pathPrefix || path.startsWith(`${f.pathPrefix}/`));
}

/**
 * The problem+json `response` re-rendered by the error format owning the request's path: same status and headers,
 * its content type and body. Unchanged when no format owns the path.
 */
export function reformatProblem(
  formats: readonly ErrorFormat[],
  mountPath: string,
  request: MockRequest,
  response: MockResponse,
): MockResponse {
  const path = withinMount(mountPath, rawPath(request.url));
  if (path === null) return response;
  const format = errorFormatFor(formats, path);
  if (!format || typeof response.body !== "string") return response;
  const rendered = format.render(JSON.parse(response.body));
  return {
    ...response,
    headers: { ...response.headers, ...rendered.headers, "content-type": rendered.contentType },
    body: JSON.stringify(rendered.body),
  };
}

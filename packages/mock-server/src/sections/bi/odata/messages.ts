import type { Culture } from "../../../core/types.ts";

/** Localized OData error messages; `{name}` placeholders are filled from the error's params. */
const M = {
  syntax: [
    "Syntaxfehler in {option} an Position {pos}: erwartet {expected}, gefunden {found}.",
    "Erreur de syntaxe dans {option} à la position {pos} : {expected} attendu, {found} trouvé.",
    "Errore di sintassi in {option} alla posizione {pos}: atteso {expected}, trovato {found}.",
    "Syntax error in {option} at position {pos}: expected {expected}, found {found}.",
  ],
  value: [
    "einen Wert, eine Eigenschaft oder eine Funktion",
    "une valeur, une propriété ou une fonction",
    "un valore, una proprietà o una funzione",
    "a value, property or function",
  ],
  end: [
    "das Ende des Ausdrucks",
    "la fin de l'expression",
    "la fine dell'espressione",
    "the end of the expression",
  ],
  endOfInput: ["das Ende der Eingabe", "la fin de la saisie", "la fine dell'input", "the end of the input"],
  unterminatedString: [
    "Nicht abgeschlossene Zeichenkette ab Position {pos} in {option}.",
    "Chaîne non terminée à partir de la position {pos} dans {option}.",
    "Stringa non terminata dalla posizione {pos} in {option}.",
    "Unterminated string literal at position {pos} in {option}.",
  ],
  unexpectedChar: [
    "Unerwartetes Zeichen «{char}» an Position {pos} in {option}.",
    "Caractère inattendu « {char} » à la position {pos} dans {option}.",
    "Carattere inatteso «{char}» alla posizione {pos} in {option}.",
    "Unexpected character '{char}' at position {pos} in {option}.",
  ],
  invalidLiteral: [
    "Ungültiges Datum «{text}» in {option}.",
    "Date invalide « {text} » dans {option}.",
    "Data non valida «{text}» in {option}.",
    "Invalid date or date-time literal '{text}' in {option}.",
  ],
  typedLiteral: [
    "{word}'...' ist keine OData-v4-Syntax; schreiben Sie Datum und Zeit ohne Anführungszeichen (2026-01-31, 2026-01-31T10:00:00Z).",
    "{word}'...' n'est pas de la syntaxe OData v4 ; écrivez dates et heures sans guillemets (2026-01-31, 2026-01-31T10:00:00Z).",
    "{word}'...' non è sintassi OData v4; scrivere date e ore senza apici (2026-01-31, 2026-01-31T10:00:00Z).",
    "{word}'...' is not OData v4 syntax; write dates and times bare (2026-01-31, 2026-01-31T10:00:00Z).",
  ],
  unknownProperty: [
    "Die Eigenschaft «{name}» existiert in «{set}» nicht.",
    "La propriété « {name} » n'existe pas dans « {set} ».",
    "La proprietà «{name}» non esiste in «{set}».",
    "The property '{name}' does not exist in '{set}'.",
  ],
  didYouMean: [
    "Meinten Sie «{name}»?",
    "Vouliez-vous dire « {name} » ?",
    "Intendeva «{name}»?",
    "Did you mean '{name}'?",
  ],
  unknownFunction: [
    "Unbekannte Funktion «{name}» an Position {pos} in {option}.",
    "Fonction inconnue « {name} » à la position {pos} dans {option}.",
    "Funzione sconosciuta «{name}» alla posizione {pos} in {option}.",
    "Unknown function '{name}' at position {pos} in {option}.",
  ],
  argCount: [
    "Die Funktion «{name}» erwartet {expected} Argument(e), erhalten {got}.",
    "La fonction « {name} » attend {expected} argument(s), reçu {got}.",
    "La funzione «{name}» richiede {expected} argomento/i, ricevuti {got}.",
    "The function '{name}' takes {expected} argument(s), got {got}.",
  ],
  argType: [
    "Argument {index} von «{name}» muss {expected} sein, nicht {got}.",
    "L'argument {index} de « {name} » doit être {expected}, pas {got}.",
    "L'argomento {index} di «{name}» deve essere {expected}, non {got}.",
    "Argument {index} of '{name}' must be {expected}, not {got}.",
  ],
  compareTypes: [
    "{left} kann nicht mit {right} verglichen werden ({op}) in {option}.",
    "Impossible de comparer {left} avec {right} ({op}) dans {option}.",
    "Impossibile confrontare {left} con {right} ({op}) in {option}.",
    "Cannot compare {left} with {right} using '{op}' in {option}.",
  ],
  notBoolean: [
    "{option} braucht einen Wahrheitswert-Ausdruck, nicht {got}.",
    "{option} exige une expression booléenne, pas {got}.",
    "{option} richiede un'espressione booleana, non {got}.",
    "{option} needs a Boolean expression, not {got}.",
  ],
  empty: [
    "{option} darf nicht leer sein.",
    "{option} ne doit pas être vide.",
    "{option} non deve essere vuoto.",
    "{option} must not be empty.",
  ],
  repeated: [
    "Die Abfrageoption {option} darf nur einmal vorkommen.",
    "L'option {option} ne peut apparaître qu'une fois.",
    "L'opzione {option} può comparire una sola volta.",
    "The query option {option} must not be repeated.",
  ],
  notNonNegativeInt: [
    "{option} muss eine nicht-negative ganze Zahl sein, nicht «{value}».",
    "{option} doit être un entier non négatif, pas « {value} ».",
    "{option} deve essere un intero non negativo, non «{value}».",
    "{option} must be a non-negative integer, not '{value}'.",
  ],
  countValue: [
    "$count muss true oder false sein, nicht «{value}».",
    "$count doit valoir true ou false, pas « {value} ».",
    "$count deve essere true o false, non «{value}».",
    "$count must be true or false, not '{value}'.",
  ],
  unknownOption: [
    "Unbekannte Systemabfrageoption {option}.",
    "Option de requête système inconnue {option}.",
    "Opzione di query di sistema sconosciuta {option}.",
    "Unknown system query option {option}.",
  ],
  unsupportedOption: [
    "Die Abfrageoption «{option}» wird nicht unterstützt.",
    "L'option de requête « {option} » n'est pas prise en charge.",
    "L'opzione di query «{option}» non è supportata.",
    "The query option '{option}' is not supported.",
  ],
  unsupportedFunction: [
    "Die Funktion «{name}» wird in {option} nicht unterstützt.",
    "La fonction « {name} » n'est pas prise en charge dans {option}.",
    "La funzione «{name}» non è supportata in {option}.",
    "The function '{name}' is not supported in {option}.",
  ],
  unsupportedOperator: [
    "Der Operator «{name}» wird in {option} nicht unterstützt.",
    "L'opérateur « {name} » n'est pas pris en charge dans {option}.",
    "L'operatore «{name}» non è supportato in {option}.",
    "The operator '{name}' is not supported in {option}.",
  ],
  unsupportedPath: [
    "Navigations- und Lambda-Pfade («{name}/...») werden in {option} nicht unterstützt.",
    "Les chemins de navigation et lambda (« {name}/... ») ne sont pas pris en charge dans {option}.",
    "I percorsi di navigazione e lambda («{name}/...») non sono supportati in {option}.",
    "Navigation and lambda paths ('{name}/...') are not supported in {option}.",
  ],
  unsupportedFormat: [
    "$format={value} wird nicht unterstützt; Daten gibt es als JSON.",
    "$format={value} n'est pas pris en charge ; les données sont servies en JSON.",
    "$format={value} non è supportato; i dati sono serviti in JSON.",
    "$format={value} is not supported; data is served as JSON.",
  ],
  skipTokenInvalid: [
    "$skiptoken stammt nicht von diesem Dienst; folgen Sie @odata.nextLink unverändert.",
    "$skiptoken ne provient pas de ce service ; suivez @odata.nextLink tel quel.",
    "$skiptoken non proviene da questo servizio; seguire @odata.nextLink così com'è.",
    "$skiptoken was not issued by this service; follow @odata.nextLink as given.",
  ],
  skipTokenMismatch: [
    "$skiptoken gehört zu einer anderen Abfrage ($filter, $orderby, $top oder $skip geändert); beginnen Sie ohne ihn neu.",
    "$skiptoken appartient à une autre requête ($filter, $orderby, $top ou $skip modifié) ; recommencez sans lui.",
    "$skiptoken appartiene a un'altra query ($filter, $orderby, $top o $skip modificati); ricominciare senza.",
    "$skiptoken belongs to another query ($filter, $orderby, $top or $skip changed); start again without it.",
  ],
  maxVersion: [
    "Dieser Dienst spricht OData 4.0 und 4.01; OData-MaxVersion {value} ist zu alt.",
    "Ce service parle OData 4.0 et 4.01 ; OData-MaxVersion {value} est trop ancien.",
    "Questo servizio usa OData 4.0 e 4.01; OData-MaxVersion {value} è troppo vecchio.",
    "This service speaks OData 4.0 and 4.01; OData-MaxVersion {value} is too old.",
  ],
  notFound: [
    "Die Ressource «{name}» existiert in diesem Dienst nicht.",
    "La ressource « {name} » n'existe pas dans ce service.",
    "La risorsa «{name}» non esiste in questo servizio.",
    "The resource '{name}' does not exist in this service.",
  ],
  keyPredicate: [
    "«{value}» ist kein Schlüssel; schreiben Sie ('wert') oder ({key}='wert'), Apostrophe verdoppelt.",
    "« {value} » n'est pas une clé ; écrivez ('valeur') ou ({key}='valeur'), apostrophes doublées.",
    "«{value}» non è una chiave; scrivere ('valore') o ({key}='valore'), apostrofi raddoppiati.",
    "'{value}' is not a key; write ('value') or ({key}='value'), with quotes inside doubled.",
  ],
  singleEntityOption: [
    "Eine einzelne Zeile von «{set}» nimmt nur $select an; $filter, $orderby, $top, $skip und $count gelten für die Sammlung.",
    "Une ligne unique de « {set} » n'accepte que $select ; $filter, $orderby, $top, $skip et $count valent pour la collection.",
    "Una singola riga di «{set}» accetta solo $select; $filter, $orderby, $top, $skip e $count valgono per la collezione.",
    "A single row of '{set}' takes $select only; $filter, $orderby, $top, $skip and $count apply to the collection.",
  ],
  entityNotFound: [
    "«{set}» hat keine Zeile mit dem Schlüssel «{key}».",
    "« {set} » n'a pas de ligne avec la clé « {key} ».",
    "«{set}» non ha una riga con la chiave «{key}».",
    "'{set}' has no row with the key '{key}'.",
  ],
  // $apply (the Data Aggregation extension: filter, compute, groupby, aggregate; see apply.ts)
  applyTransformation: [
    "Unbekannte Transformation «{name}» in $apply; unterstützt sind filter, compute, groupby und aggregate.",
    "Transformation inconnue « {name} » dans $apply ; sont prises en charge filter, compute, groupby et aggregate.",
    "Trasformazione sconosciuta «{name}» in $apply; sono supportate filter, compute, groupby e aggregate.",
    "Unknown transformation '{name}' in $apply; supported: filter, compute, groupby and aggregate.",
  ],
  applyForm: [
    "«{text}» in $apply ist nicht lesbar; erwartet {expected}.",
    "« {text} » dans $apply est illisible ; attendu {expected}.",
    "«{text}» in $apply non è leggibile; atteso {expected}.",
    "Cannot read '{text}' in $apply; expected {expected}.",
  ],
  applyTransformationForm: [
    "name(argumente), getrennt durch /",
    "nom(arguments), séparés par /",
    "nome(argomenti), separati da /",
    "name(arguments), separated by /",
  ],
  applyAggregateForm: [
    "«Eigenschaft with sum|average|min|max|countdistinct as Alias» oder «$count as Alias»",
    "« Propriété with sum|average|min|max|countdistinct as Alias » ou « $count as Alias »",
    "«Proprietà with sum|average|min|max|countdistinct as Alias» o «$count as Alias»",
    "'Property with sum|average|min|max|countdistinct as Alias' or '$count as Alias'",
  ],
  applyComputeForm: [
    "«Ausdruck as Alias»",
    "« expression as Alias »",
    "«espressione as Alias»",
    "'expression as Alias'",
  ],
  applyGroupbyForm: [
    "groupby((Eigenschaft, …)) oder groupby((Eigenschaft, …), aggregate(…))",
    "groupby((Propriété, …)) ou groupby((Propriété, …), aggregate(…))",
    "groupby((Proprietà, …)) o groupby((Proprietà, …), aggregate(…))",
    "groupby((Property, …)) or groupby((Property, …), aggregate(…))",
  ],
  applyMethod: [
    "Unbekannte Aggregationsmethode «{method}»; verwenden Sie sum, average, min, max oder countdistinct.",
    "Méthode d'agrégation inconnue « {method} » ; utilisez sum, average, min, max ou countdistinct.",
    "Metodo di aggregazione sconosciuto «{method}»; usare sum, average, min, max o countdistinct.",
    "Unknown aggregation method '{method}'; use sum, average, min, max or countdistinct.",
  ],
  applyMethodType: [
    "{method} braucht einen Zahlenwert, nicht {got} («{text}»).",
    "{method} exige une valeur numérique, pas {got} (« {text} »).",
    "{method} richiede un valore numerico, non {got} («{text}»).",
    "{method} needs a number, not {got} ('{text}').",
  ],
  applyAlias: [
    "Der Name «{alias}» ist schon vergeben; wählen Sie einen anderen Alias.",
    "Le nom « {alias} » est déjà pris ; choisissez un autre alias.",
    "Il nome «{alias}» è già usato; scegliere un altro alias.",
    "The name '{alias}' is already taken; choose another alias.",
  ],
  applyAfterGrouping: [
    "Nach groupby oder aggregate nimmt $apply nur noch filter(…) an.",
    "Après groupby ou aggregate, $apply n'accepte plus que filter(…).",
    "Dopo groupby o aggregate, $apply accetta solo filter(…).",
    "After groupby or aggregate, $apply takes filter(…) only.",
  ],
  applyNeedsGrouping: [
    "$apply endet hier mit groupby(…) oder aggregate(…); Zeilen ohne Aggregation liefern $filter und $select.",
    "Ici, $apply se termine par groupby(…) ou aggregate(…) ; les lignes sans agrégation s'obtiennent avec $filter et $select.",
    "Qui $apply termina con groupby(…) o aggregate(…); le righe senza aggregazione si ottengono con $filter e $select.",
    "$apply here ends in groupby(…) or aggregate(…); for rows without aggregation use $filter and $select.",
  ],
  applyGroupLimit: [
    "Die Aggregation ergibt mehr als {limit} Gruppen oder Werte; gruppieren Sie gröber oder filtern Sie zuerst.",
    "L'agrégation produit plus de {limit} groupes ou valeurs ; regroupez plus largement ou filtrez d'abord.",
    "L'aggregazione produce più di {limit} gruppi o valori; raggruppare in modo più ampio o filtrare prima.",
    "The aggregation makes more than {limit} groups or values; group more coarsely or filter first.",
  ],
} satisfies Record<string, [string, string, string, string]>;

export type MessageKey = keyof typeof M;
export type MessageParams = Record<string, string | number>;

const INDEX: Record<Culture, number> = { "de-CH": 0, "fr-CH": 1, "it-CH": 2, "en-GB": 3 };

/** Params whose value is itself a message key (`{expected}` = "value") are translated too. */
export function message(key: MessageKey, params: MessageParams, culture: Culture): string {
  const template = M[key][INDEX[culture]] as string;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (typeof v === "string" && v.startsWith("@") && v.slice(1) in M)
      return message(v.slice(1) as MessageKey, params, culture);
    return v === undefined ? "" : String(v);
  });
}

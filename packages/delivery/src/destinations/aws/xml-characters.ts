/**
 * SQS message bodies and SNS messages may hold only the characters of XML 1.0: #x9 | #xA | #xD |
 * #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF; anything else is refused (`InvalidMessageContents`)
 * as a payload error. JSON.stringify already escapes the control characters and lone surrogates, so
 * of valid JSON text only the noncharacters U+FFFE and U+FFFF can still be outside that set. They
 * can only occur inside JSON strings, where the escape `\uffff` parses back to the same text.
 */
const OUTSIDE_XML = /[\uFFFE\uFFFF]/;
const OUTSIDE_XML_ALL = /[\uFFFE\uFFFF]/g;

/** The JSON text with the characters SQS and SNS refuse written as JSON escapes. */
export function withXmlSafeCharacters(json: string): string {
  // Almost no text holds them: one scan, and no copy, on the hot path.
  if (!OUTSIDE_XML.test(json)) return json;
  return json.replace(OUTSIDE_XML_ALL, (character) => `\\u${character.charCodeAt(0).toString(16)}`);
}

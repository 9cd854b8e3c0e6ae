/** Where in a predicate's text something is: 0-based offset, 1-based line and column. */
export interface SourcePosition {
  offset: number;
  line: number;
  column: number;
}

/**
 * A predicate that cannot be compiled. Carries the position so that the HTTP boundary can answer a
 * 400 naming it (issue 29: "a malformed predicate is a 400 naming the position"). Pure: no HTTP here.
 */
export class PredicateSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly position: SourcePosition,
  ) {
    super(`${reason} at line ${position.line}, column ${position.column} (offset ${position.offset})`);
    this.name = 'PredicateSyntaxError';
  }
}

/** The position of `offset` in `source`, counting lines from 1 and columns from 1. */
export function positionOf(source: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < source.length; index += 1) {
    if (source[index] === '\n') {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}

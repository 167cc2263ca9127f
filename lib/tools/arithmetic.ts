/**
 * A pure arithmetic evaluator: recursive descent, no `eval`, no `Function`. Errors are
 * returned, not thrown, with the 0-based offset of the offending character.
 *
 *   expression := term (("+" | "-") term)*
 *   term       := unary (("*" | "/" | "%") unary)*
 *   unary      := ("-" | "+") unary | power
 *   power      := primary ("^" unary)?      right-associative; -2^2 = -(2^2), 2^-1 = 0.5
 *   primary    := number | constant | function "(" expression ("," expression)* ")"
 *               | "(" expression ")"
 */
export type Evaluation =
  | { ok: true; value: number }
  | { ok: false; message: string; offset: number };

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

const FUNCTIONS: Record<
  string,
  { arity: [min: number, max: number]; compute(...args: number[]): number }
> = {
  sqrt: { arity: [1, 1], compute: Math.sqrt },
  abs: { arity: [1, 1], compute: Math.abs },
  round: { arity: [1, 1], compute: Math.round },
  floor: { arity: [1, 1], compute: Math.floor },
  ceil: { arity: [1, 1], compute: Math.ceil },
  min: { arity: [1, Number.POSITIVE_INFINITY], compute: Math.min },
  max: { arity: [1, Number.POSITIVE_INFINITY], compute: Math.max },
};

/** Deep enough for any real formula, shallow enough that "((((…" cannot overflow the stack. */
const MAX_DEPTH = 64;

class EvaluationError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function evaluate(expression: string): Evaluation {
  try {
    const parser = new Parser(expression);
    const value = parser.parseAll();
    return { ok: true, value };
  } catch (error) {
    if (error instanceof EvaluationError) {
      return { ok: false, message: error.message, offset: error.offset };
    }
    throw error;
  }
}

const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

class Parser {
  private at = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parseAll(): number {
    const value = this.expression();
    this.skipSpace();
    if (this.at < this.text.length) throw this.unexpected();
    if (!Number.isFinite(value)) {
      throw new EvaluationError("The result is too large to represent", 0);
    }
    return value;
  }

  private expression(): number {
    let value = this.term();
    for (let operator = this.peek(); operator === "+" || operator === "-"; operator = this.peek()) {
      this.at++;
      const right = this.term();
      value = operator === "+" ? value + right : value - right;
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (
      let operator = this.peek();
      operator === "*" || operator === "/" || operator === "%";
      operator = this.peek()
    ) {
      const offset = this.at;
      this.at++;
      const right = this.unary();
      if (operator === "*") {
        value *= right;
        continue;
      }
      if (right === 0)
        throw new EvaluationError(`Division by zero at position ${offset + 1}`, offset);
      value = operator === "/" ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    const sign = this.peek();
    if (sign !== "-" && sign !== "+") return this.power();
    this.at++;
    const value = this.nested(() => this.unary());
    return sign === "-" ? -value : value;
  }

  private power(): number {
    const base = this.primary();
    if (this.peek() !== "^") return base;
    const offset = this.at;
    this.at++;
    const exponent = this.nested(() => this.unary());
    const value = base ** exponent;
    if (Number.isNaN(value)) {
      const shown = base < 0 ? `(${base})` : `${base}`;
      throw new EvaluationError(
        `${shown} ^ ${exponent} is not a real number (at position ${offset + 1})`,
        offset,
      );
    }
    return value;
  }

  private primary(): number {
    this.skipSpace();
    const start = this.at;
    if (this.peek() === "(") {
      this.at++;
      const value = this.nested(() => this.expression());
      this.expect(")", start);
      return value;
    }
    const number = this.match(NUMBER);
    if (number !== undefined) return Number(number);
    const name = this.match(NAME);
    if (name === undefined) throw this.unexpected();
    return this.peek() === "(" ? this.call(name.toLowerCase(), start) : this.constant(name, start);
  }

  private constant(name: string, start: number): number {
    const value = CONSTANTS[name.toLowerCase()];
    if (value !== undefined) return value;
    const known = [...Object.keys(CONSTANTS), ...Object.keys(FUNCTIONS)].join(", ");
    throw new EvaluationError(
      `Unknown name "${name}" at position ${start + 1}; known: ${known}`,
      start,
    );
  }

  private call(name: string, start: number): number {
    const fn = FUNCTIONS[name];
    if (fn === undefined) {
      throw new EvaluationError(
        `Unknown function "${name}" at position ${start + 1}; known: ${Object.keys(FUNCTIONS).join(", ")}`,
        start,
      );
    }
    this.at++; // "("
    const args = [this.nested(() => this.expression())];
    while (this.peek() === ",") {
      this.at++;
      args.push(this.nested(() => this.expression()));
    }
    this.expect(")", start);
    const [min, max] = fn.arity;
    if (args.length < min || args.length > max) {
      const wanted = min === max ? `${min}` : `at least ${min}`;
      throw new EvaluationError(
        `${name}() takes ${wanted} argument${min === 1 && max === 1 ? "" : "s"}, got ${args.length} (at position ${start + 1})`,
        start,
      );
    }
    if (name === "sqrt" && (args[0] ?? 0) < 0) {
      throw new EvaluationError(`sqrt() of a negative number at position ${start + 1}`, start);
    }
    return fn.compute(...args);
  }

  private nested(parse: () => number): number {
    if (++this.depth > MAX_DEPTH) {
      throw new EvaluationError(
        `Expression is nested too deeply at position ${this.at + 1}`,
        this.at,
      );
    }
    const value = parse();
    this.depth--;
    return value;
  }

  private expect(closing: string, opened: number): void {
    if (this.peek() === closing) {
      this.at++;
      return;
    }
    if (this.at >= this.text.length) {
      throw new EvaluationError(`Missing "${closing}" for "(" at position ${opened + 1}`, this.at);
    }
    throw this.unexpected();
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.at += found.length;
    return found;
  }

  /** The next non-space character, without consuming it. */
  private peek(): string | undefined {
    this.skipSpace();
    return this.text[this.at];
  }

  private skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  private unexpected(): EvaluationError {
    if (this.at >= this.text.length) {
      return new EvaluationError(
        `Expression ends early; expected a number at position ${this.at + 1}`,
        this.at,
      );
    }
    const character = JSON.stringify(this.text[this.at]);
    return new EvaluationError(`Unexpected ${character} at position ${this.at + 1}`, this.at);
  }
}

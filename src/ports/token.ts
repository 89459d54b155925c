/**
 * A typed injection token: a symbol that remembers the type bound to it, so that the composition root
 * cannot bind or resolve the wrong type without a compile error.
 */
export type Token<T> = symbol & { readonly __portType?: T };

export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>;
}

import { selector_count_max, type PathSelector } from '../ast/pattern.js';
import type { Expression } from '../ast/expression.js';
import type { ParameterContext, PathSelectorContext } from '../grammar/gen/CypherParser.js';
import { symbolicName, type Builder } from './builder.js';
import { integerMagnitude } from './literals.js';


/**
 * A path selector's words, checked here because SHORTEST, PATH(S) and GROUP(S) are names elsewhere:
 * `ALL [SHORTEST] [PATH|PATHS]`, `ANY [SHORTEST | k] [PATH|PATHS]`, `SHORTEST k [PATH|PATHS]`,
 * `SHORTEST [k] [PATH|PATHS] GROUP|GROUPS`. Undefined for `ALL` alone, which selects every path.
 */
export function pathSelector(ctx: PathSelectorContext, b: Builder, parameter: (ctx: ParameterContext) => Expression): PathSelector | undefined {
  const written = pathSelectorWords(ctx, b);
  if (written === undefined || ctx._countParameter === undefined) return written;
  if (written.kind === 'shortest' && ctx.ANY() !== null) {
    throw b.source.error('InvalidPathSelector', `invalid path selector '${ctx.getText()}': ANY SHORTEST takes no number`, b.source.span(ctx));
  }
  return { ...written, count_parameter: parameter(ctx._countParameter) };
}

function pathSelectorWords(ctx: PathSelectorContext, b: Builder): PathSelector | undefined {
  const span = b.source.span(ctx);
  const words = ctx._selectorWord.map((w) => symbolicName(w).toUpperCase());
  const refuse = (why: string): never => {
    throw b.source.error('InvalidPathSelector', `invalid path selector '${ctx.getText()}': ${why}`, span);
  };
  let count: number | undefined;
  if (ctx._count !== undefined) {
    const v = integerMagnitude(ctx._count.getText(), span, b.source.error.bind(b.source));
    if (v < 1n) refuse('the number of paths or groups must be at least 1');
    if (v > BigInt(selector_count_max)) refuse(`the number of paths or groups must be at most ${selector_count_max}`);
    count = Number(v);
  }
  const rest = (from: number): readonly string[] => {
    const tail = words.slice(from);
    const pathWord = tail[0] === 'PATH' || tail[0] === 'PATHS' ? 1 : 0;
    return tail.slice(pathWord);
  };
  if (ctx.ALL() !== null) {
    const shortest = words[0] === 'SHORTEST';
    if (rest(shortest ? 1 : 0).length > 0) refuse('expected ALL [SHORTEST] [PATHS]');
    return shortest ? { kind: 'shortest_groups', count: 1, span } : undefined;
  }
  if (ctx.ANY() !== null) {
    const shortest = words[0] === 'SHORTEST';
    if (shortest && count !== undefined) refuse('ANY SHORTEST takes no number');
    if (rest(shortest ? 1 : 0).length > 0) refuse('expected ANY [SHORTEST | k] [PATHS]');
    return { kind: shortest ? 'shortest' : 'any', count: count ?? 1, span };
  }
  if (words[0] !== 'SHORTEST') refuse(`expected SHORTEST, ANY or ALL, found ${words[0] ?? 'nothing'}`);
  const tail = rest(1);
  if (tail.length === 1 && (tail[0] === 'GROUP' || tail[0] === 'GROUPS')) return { kind: 'shortest_groups', count: count ?? 1, span };
  if (tail.length > 0) refuse('expected SHORTEST k [PATHS] or SHORTEST [k] GROUPS');
  if (count === undefined && ctx._countParameter === undefined) refuse('SHORTEST needs the number of paths (SHORTEST 1) unless it selects GROUPS');
  return { kind: 'shortest', count: count ?? 1, span };
}

import type { ValueTypeAlternativeContext, ValueTypeExpressionContext } from '../grammar/gen/CypherParser.js';
import type { WrittenAlternative } from '../functions/value-types.js';
import { symbolicName } from './builder.js';

/**
 * The type of a type predicate as written: each alternative's name words (`TIME WITH TIME ZONE` keeps
 * its WITH), its element type, and NOT NULL (or its shorthand `!`). Which names exist is checked by resolveWrittenType.
 */
export function writtenValueType(ctx: ValueTypeExpressionContext): WrittenAlternative[] {
  return ctx.valueTypeAlternative().map(writtenAlternative);
}

function writtenAlternative(ctx: ValueTypeAlternativeContext): WrittenAlternative {
  const words = ctx.valueTypeWord().map((w) => {
    const name = w.symbolicName();
    return name === null ? 'NULL' : symbolicName(name);
  });
  // The grammar puts the two words after WITH last: `TIME WITH TIME ZONE`.
  if (ctx.WITH() !== null) words.splice(words.length - 2, 0, 'WITH');
  const element = ctx.valueTypeExpression();
  return { words, ...(element !== null && { element: writtenValueType(element) }), not_null: ctx.NOT() !== null || ctx.BANG() !== null };
}

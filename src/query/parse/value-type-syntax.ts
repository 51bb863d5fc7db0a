import type { ValueTypeAlternativeContext, ValueTypeExpressionContext } from '../grammar/gen/CypherParser.js';
import type { WrittenAlternative } from '../functions/value-types.js';
import { symbolicName } from './builder.js';

/**
 * The type of a type predicate as written: each alternative's name words (`TIME WITH TIME ZONE` keeps
 * its WITH; `INTEGER LIST` is a list type written after its element), its element type, and NOT NULL (or its shorthand `!`). Which names exist is checked by resolveWrittenType.
 */
export function writtenValueType(ctx: ValueTypeExpressionContext): WrittenAlternative[] {
  return ctx.valueTypeAlternative().map(writtenAlternative);
}

function writtenAlternative(ctx: ValueTypeAlternativeContext): WrittenAlternative {
  const words = ctx.valueTypeWord().map((w) => {
    const name = w.symbolicName();
    return name === null ? 'NULL' : symbolicName(name);
  });
  // The grammar puts the words after WITH last: `TIME WITH TIME ZONE`, `TIME WITH TIMEZONE`.
  const withToken = ctx.WITH();
  if (withToken !== null) {
    const after = ctx.valueTypeWord().filter((w) => w.start!.tokenIndex > withToken.symbol.tokenIndex).length;
    words.splice(words.length - after, 0, 'WITH');
  }
  const element = ctx.valueTypeExpression();
  return { words, ...(element !== null && { element: writtenValueType(element) }), not_null: ctx.NOT() !== null || ctx.BANG() !== null };
}

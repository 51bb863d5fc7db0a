import type { TextAnalyzerName } from '../../log/events.js';
import { porterStem } from './porter-stemmer.js';

/**
 * Text analyzers: a string in, the terms a text index stores (and a query looks up) out, in order.
 *
 * - standard: Unicode letters and digits form words, lower-cased; everything else separates.
 * - whitespace: runs of non-space characters, as written (case kept).
 * - keyword: the whole value, as written, one term.
 * - english: standard, without English stop words, each word Porter-stemmed.
 */
export const text_analyzers: readonly TextAnalyzerName[] = ['standard', 'whitespace', 'keyword', 'english'];

/** Lucene's English stop word set. */
const english_stop_words: ReadonlySet<string> = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '),
);

const word_pattern = /[\p{L}\p{N}]+/gu;

export function analyze(analyzer: TextAnalyzerName, text: string): string[] {
  switch (analyzer) {
    case 'standard':
      return words(text);
    case 'whitespace':
      return text.split(/\s+/u).filter((t) => t !== '');
    case 'keyword':
      return text === '' ? [] : [text];
    case 'english':
      return words(text)
        .filter((w) => !english_stop_words.has(w))
        .map(porterStem);
  }
}

function words(text: string): string[] {
  return (text.toLowerCase().match(word_pattern) ?? []) as string[];
}

/**
 * One term of a prefix query (`foo*`) as the index stores terms: the analyzer's form of the word,
 * without stemming (a stem of a partial word would not be a prefix of the stems it should find).
 */
export function analyzePrefix(analyzer: TextAnalyzerName, text: string): string | undefined {
  switch (analyzer) {
    case 'standard':
    case 'english':
      return words(text)[0];
    case 'whitespace':
    case 'keyword':
      return text === '' ? undefined : text;
  }
}

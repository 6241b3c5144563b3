/**
 * Recovery phrases (BIP39, English wordlist): new ones of 12 or 24 words, and the check of a
 * typed one that names the first word not in the list, or says the checksum is wrong.
 * @module
 */
import { generateMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

export type PhraseLength = 12 | 24;

const WORDS = new Set(wordlist);
const LENGTHS = new Set([12, 15, 18, 21, 24]);

/** A new phrase's words (128 bits for 12 words, 256 for 24), from the platform's secure random source. */
export function newPhrase(length: PhraseLength): string[] {
  return generateMnemonic(wordlist, length === 12 ? 128 : 256).split(" ");
}

/** A typed phrase as its words: lower case, any spacing. */
export function phraseWords(text: string): string[] {
  return text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
}

/** Why `text` is not a valid phrase (a sentence for the page), or null when it is. */
export function phraseProblem(text: string): string | null {
  const words = phraseWords(text);
  if (words.length === 0) return "Type or paste your recovery phrase.";
  const bad = words.findIndex((w) => !WORDS.has(w));
  if (bad >= 0) {
    return `Word ${bad + 1} ("${words[bad]}") is not in the English BIP39 word list.`;
  }
  if (!LENGTHS.has(words.length)) {
    return `A recovery phrase has 12, 15, 18, 21 or 24 words; this one has ${words.length}.`;
  }
  if (!validateMnemonic(words.join(" "), wordlist)) {
    return "The words are all valid but the phrase's checksum does not match: a word is wrong or out of order.";
  }
  return null;
}

/** `count` distinct positions (0-based, ascending) of a phrase of `length` words to confirm. */
export function confirmationPositions(
  length: number,
  count: number,
  random: (n: number) => number,
): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, length)) picked.add(random(length));
  return [...picked].sort((a, b) => a - b);
}

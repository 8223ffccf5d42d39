'use strict';
// The setting boardbridge.command: the program and its first arguments, as a list
// (["npx", "boardbridge"]) or as one line the way people type it ("npx boardbridge",
// quotes respected as a shell would, nothing expanded). Anything else is an error
// that names the setting.

const SETTING = 'boardbridge.command';

/**
 * @param {unknown} value the setting's value
 * @returns {string[] | undefined} the command, or undefined when the setting is empty (use the default)
 */
function commandSetting(value) {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  if (Array.isArray(value)) {
    const bad = value.findIndex((word) => typeof word !== 'string' || word === '');
    if (bad >= 0) throw settingError(`item ${bad + 1} of the list is ${JSON.stringify(value[bad])}, not a word of the command`);
    return value;
  }
  if (typeof value === 'string') {
    const words = commandLineWords(value);
    if (!words) throw settingError(`${JSON.stringify(value)} has a quote that is never closed (or ends in a lone backslash)`);
    return words.length ? words : undefined;
  }
  throw settingError(`it is ${JSON.stringify(value)}`);
}

function settingError(what) {
  const error = new Error(
    `The setting ${SETTING} must be the command that runs boardbridge, as a list such as ["npx", "boardbridge"] or one line such as "npx boardbridge" (quote a path with spaces): ${what}.`,
  );
  error.setting = SETTING;
  return error;
}

// A word is a run of plain characters, backslash escapes, "double" and 'single' quoted parts.
const WORD = /(?:[^\s"'\\]+|\\[\s\S]|"(?:[^"\\]|\\[\s\S])*"|'[^']*')+/g;
const PART = /[^\s"'\\]+|\\([\s\S])|"((?:[^"\\]|\\[\s\S])*)"|'([^']*)'/g;

/** The words of a command line, or undefined when a quote is left open. */
function commandLineWords(line) {
  const words = line.match(WORD) ?? [];
  // What the word pattern could not take is whitespace, or an unclosed quote.
  if (line.replace(WORD, '').trim() !== '') return undefined;
  return words.map((word) =>
    word.replace(PART, (whole, escaped, doubled, single) => {
      if (escaped !== undefined) return escaped;
      if (doubled !== undefined) return doubled.replace(/\\(["\\$`])/g, '$1');
      if (single !== undefined) return single;
      return whole;
    }),
  );
}

module.exports = { commandSetting, SETTING };

// The player's display choices, remembered in localStorage: the piece set (kanji or Latin
// letters), the notation of the move list (Japanese, Western or USI), the sound, the board's
// theme, the pieces' colours and the board's size (px; 0: the layout's own).

const KEY = 'tsubame.settings';
const DEFAULTS = { pieces: 'kanji', notation: 'western', sound: true, board: 'wood', pieceColour: 'natural', boardSize: 0 };

function load() {
  try {
    return Object.assign({}, DEFAULTS, JSON.parse(localStorage.getItem(KEY) || '{}'));
  } catch (e) {
    return Object.assign({}, DEFAULTS);
  }
}

/** The choices in force. */
export const settings = load();

/** Remembers the choices (a browser that refuses storage keeps them for this visit). */
export function saveSettings() {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch (e) {
    // storage refused: the choices last until the page is closed
  }
}

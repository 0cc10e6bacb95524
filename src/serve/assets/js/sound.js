// Sounds of moves and captures: short tones made with WebAudio (no audio files), silenced by the
// Sound switch. `app.sounds` lists the sounds played, for the tests.

import { app } from './state.js';
import { settings } from './settings.js';

let context = null;

/** Plays the sound of a move (`move` or `capture`) unless the sound is off. */
export function playSound(kind) {
  if (!settings.sound) return;
  app.sounds.push(kind);
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    context = context || new Ctx();
    if (context.state === 'suspended') context.resume();
    const now = context.currentTime;
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = kind === 'capture' ? 'square' : 'triangle';
    osc.frequency.setValueAtTime(kind === 'capture' ? 330 : 660, now);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(kind === 'capture' ? 0.12 : 0.08, now + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + (kind === 'capture' ? 0.18 : 0.09));
    osc.connect(gain).connect(context.destination);
    osc.start(now);
    osc.stop(now + 0.2);
  } catch (e) {
    // no audio on this machine: the move is made all the same
  }
}

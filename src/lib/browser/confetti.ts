/**
 * Celebration confetti (§9: 3 seconds, 50 pieces), never under reduced motion. The pieces are
 * spread over bursts so the shower lasts the whole 3 seconds; the canvas is removed afterwards.
 */
import confetti from 'canvas-confetti';

/**
 * canvas-confetti's `create`, for the other page that celebrates (/thank-you's island): both pages
 * import this module (dynamically), never canvas-confetti itself, so the bundle keeps one chunk
 * for it without a namespace shim (rolldown's runtime, 1.3 KB /webinar-thank-you cannot afford).
 */
export const createConfetti = confetti.create;

export const CONFETTI_DURATION_MS = 3000;
export const CONFETTI_PIECES = 50;

/** Pieces per burst: `pieces` split over `bursts`, summing exactly to `pieces`. */
export function confettiBursts(pieces = CONFETTI_PIECES, bursts = 10): number[] {
  const base = Math.floor(pieces / bursts);
  return Array.from({ length: bursts }, (_, i) => base + (i < pieces % bursts ? 1 : 0));
}

/** Starts the shower; resolves with the number of pieces thrown (0 under reduced motion). */
export function celebrate(durationMs = CONFETTI_DURATION_MS, pieces = CONFETTI_PIECES): Promise<number> {
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    document.documentElement.dataset.confetti = 'skipped';
    return Promise.resolve(0);
  }
  const canvas = document.createElement('canvas');
  canvas.setAttribute('aria-hidden', 'true');
  canvas.dataset.confettiCanvas = '';
  canvas.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;pointer-events:none;z-index:70';
  document.body.append(canvas);
  const shoot = confetti.create(canvas, { resize: true, useWorker: false, disableForReducedMotion: true });
  const bursts = confettiBursts(pieces);
  const gap = durationMs / bursts.length;
  let thrown = 0;
  document.documentElement.dataset.confetti = 'running';
  return new Promise((resolve) => {
    bursts.forEach((count, i) => {
      setTimeout(() => {
        thrown += count;
        void shoot({ particleCount: count, spread: 70, startVelocity: 35, ticks: 120, origin: { x: i % 2 ? 0.25 : 0.75, y: 0.6 } });
      }, i * gap);
    });
    setTimeout(() => {
      shoot.reset();
      canvas.remove();
      document.documentElement.dataset.confetti = 'done';
      document.documentElement.dataset.confettiPieces = String(thrown);
      resolve(thrown);
    }, durationMs);
  });
}

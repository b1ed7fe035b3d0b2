/** The home hero's decoration (§9): the grid, the pointer's clear circle and the particles. */
export const HERO_GRID = { horizontal: 20, vertical: 30, spacing: 60 } as const;
export const HERO_REVEAL_RADIUS = 120;
export const HERO_PARTICLES = 15;

/**
 * How long the particles move, at most, once they start: moving decoration that lasts longer than
 * five seconds beside the page's content needs a way to stop it (WCAG 2.2.2, Pause, Stop, Hide),
 * so they float out and back once, then rest where they began.
 */
export const HERO_FLOAT_SECONDS = 5;
/** Each particle's passes (out, then back: the animation alternates). */
export const HERO_FLOAT_PASSES = 2;

export interface Particle {
  left: number;
  top: number;
  size: number;
  round: boolean;
  /** One pass, in seconds. */
  duration: number;
  /** How far into its first pass it starts (a negative delay), in seconds, less than one pass. */
  delay: number;
}

/** Deterministic positions, so the prebuilt HTML is the same on every build. */
export function heroParticles(count = HERO_PARTICLES): Particle[] {
  return Array.from({ length: count }, (_, i) => {
    const a = (i * 37 + 11) % 100;
    const b = (i * 53 + 29) % 100;
    return {
      left: 4 + a * 0.92,
      top: 6 + b * 0.86,
      size: 6 + ((i * 7) % 10),
      round: i % 3 !== 0,
      duration: 2 + (i % 6) * 0.1,
      delay: Math.round(((i * 0.37) % 1.5) * 100) / 100,
    };
  });
}

/** Moves the clear circle with the pointer (mouse, pen or a finger dragging). */
export function initHeroSpotlight(): void {
  for (const hero of document.querySelectorAll<HTMLElement>('[data-hero]')) {
    let _frame = 0;
    let x = -999;
    let y = -999;
    const paint = () => {
      _frame = 0;
      hero.style.setProperty('--spot-x', `${x}px`);
      hero.style.setProperty('--spot-y', `${y}px`);
    };
    hero.addEventListener(
      'pointermove',
      (event) => {
        const rect = hero.getBoundingClientRect();
        x = event.clientX - rect.left;
        y = event.clientY - rect.top;
        _frame ||= requestAnimationFrame(paint);
      },
      { passive: true },
    );
    hero.addEventListener('pointerleave', () => {
      x = -999;
      y = -999;
      _frame ||= requestAnimationFrame(paint);
    });
  }
}

/** The home hero's decoration (§9): the grid, the pointer's clear circle and the particles. */
export const HERO_GRID = { horizontal: 20, vertical: 30, spacing: 60 } as const;
export const HERO_REVEAL_RADIUS = 120;
export const HERO_PARTICLES = 15;

export interface Particle {
  left: number;
  top: number;
  size: number;
  round: boolean;
  duration: number;
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
      duration: 7 + (i % 6),
      delay: (i * 1.3) % 7,
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

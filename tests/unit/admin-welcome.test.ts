// @vitest-environment jsdom
/** Issue 32: the very first sign-in to the admin page said "Welcome back, admin." */
import { beforeEach, expect, test } from 'vitest';
import { welcomeFor } from '../../src/lib/browser/admin-welcome';

beforeEach(() => localStorage.clear());

test('the first sign-in on a device says "Welcome", a later one "Welcome back", per person', () => {
  expect(welcomeFor('admin')).toBe('Welcome, admin.');
  expect(welcomeFor('admin')).toBe('Welcome back, admin.');
  expect(welcomeFor('ana@school.example')).toBe('Welcome, ana@school.example.');
  expect(welcomeFor('admin')).toBe('Welcome back, admin.');
});

test('without storage every sign-in is greeted as a first one, never wrongly "back"', () => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = () => {
    throw new Error('QuotaExceededError');
  };
  try {
    expect(welcomeFor('admin')).toBe('Welcome, admin.');
    expect(welcomeFor('admin')).toBe('Welcome, admin.');
  } finally {
    Storage.prototype.setItem = setItem;
  }
});

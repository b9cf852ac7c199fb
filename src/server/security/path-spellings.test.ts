import { describe, expect, it } from 'vitest';
import { spellings } from './path-spellings.js';

describe('spellings', () => {
  it('covers every trick in every segment', () => {
    const s = spellings('/api/admin/users');
    for (const expected of [
      '/%61pi/admin/users',
      '/api/%61dmin/users',
      '/api/admin/%75sers',
      '/api/%61%64%6D%69%6E/users',
      '//api/admin/users',
      '/api//admin/users',
      '/api/./admin/users',
      '/api/x/../admin/users',
      '/api/admin/users/',
      '/api;x=1/admin/users',
      '/api/admin;x=1/users',
      '/api%2Fadmin/users',
      '/api/admin%2Fusers',
      '/API/admin/users',
    ]) {
      expect(s).toContain(expected);
    }
    expect(s).not.toContain('/api/admin/users');
  });
});

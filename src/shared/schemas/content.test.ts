import { describe, expect, it } from 'vitest';
import { toEmbedVideoUrl } from './content.js';

describe('toEmbedVideoUrl', () => {
  it('turns watch, short and embed links into the embed form', () => {
    expect(toEmbedVideoUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(toEmbedVideoUrl('https://youtu.be/dQw4w9WgXcQ?si=x')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(toEmbedVideoUrl('https://www.youtube.com/embed/dQw4w9WgXcQ')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(toEmbedVideoUrl('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );
    expect(toEmbedVideoUrl('https://m.youtube.com/shorts/dQw4w9WgXcQ')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
  });
  it('keeps other addresses and empty values', () => {
    expect(toEmbedVideoUrl('https://player.vimeo.com/video/1')).toBe('https://player.vimeo.com/video/1');
    expect(toEmbedVideoUrl('  ')).toBe('');
  });
});

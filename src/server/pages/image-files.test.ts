import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageFiles } from './image-files.js';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'image-files-'));
  fs.mkdirSync(path.join(root, 'client', 'images', 'products'), { recursive: true });
  fs.mkdirSync(path.join(root, 'uploads', 'products'), { recursive: true });
  fs.writeFileSync(path.join(root, 'client', 'images', 'products', 'here.svg'), '<svg/>');
  fs.writeFileSync(path.join(root, 'client', 'images', 'with space.svg'), '<svg/>');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'no');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const files = () =>
  new ImageFiles(
    [
      { prefix: '/images/', dir: path.join(root, 'client', 'images') },
      { prefix: '/uploads/', dir: path.join(root, 'uploads') },
    ],
    ['/uploads/'],
  );

describe('ImageFiles', () => {
  it('names the missing image paths found anywhere in a page’s data, each once', async () => {
    const data = [
      { key: ['settings'], data: { settings: { homepage_hero_image: '/images/hero.svg', contact_email: 'a@b.c' } } },
      {
        key: ['products', 'detail', 'x'],
        data: { product: { images: ['/images/products/here.svg', '/images/products/gone.svg', 'https://cdn.example/x.png'] } },
      },
      {
        key: ['products', 'featured'],
        data: {
          items: [{ images: ['/images/products/gone.svg?v=2'] }, { images: ['/images/with%20space.svg', '/uploads/products/new.png'] }],
        },
      },
    ];
    expect(await files().missingIn(data)).toEqual([
      '/images/hero.svg',
      '/images/products/gone.svg',
      '/images/products/gone.svg?v=2',
      '/uploads/products/new.png',
    ]);
  });

  it('never looks outside its folders, whatever the spelling', async () => {
    const spellings = [
      '/images/../../secret.txt',
      '/images/%2e%2e/%2e%2e/secret.txt',
      '/images/',
      '/images/%zz',
      '/images/products/here.svg%00',
    ];
    expect(await files().missingIn(spellings)).toEqual(spellings);
  });

  it('looks a path up once, until the uploads change', async () => {
    const f = files();
    expect(await f.missingIn(['/uploads/products/new.png', '/images/products/here.svg'])).toEqual(['/uploads/products/new.png']);
    fs.writeFileSync(path.join(root, 'uploads', 'products', 'new.png'), 'png');
    fs.renameSync(
      path.join(root, 'client', 'images', 'products', 'here.svg'),
      path.join(root, 'client', 'images', 'products', 'moved.svg'),
    );
    // Remembered: no look at the disk.
    expect(await f.missingIn(['/uploads/products/new.png', '/images/products/here.svg'])).toEqual(['/uploads/products/new.png']);
    // A shop change forgets the uploads only; the built images change only with a new build.
    f.forget();
    expect(await f.missingIn(['/uploads/products/new.png', '/images/products/here.svg'])).toEqual([]);
    f.forget(true);
    expect(await f.missingIn(['/uploads/products/new.png', '/images/products/here.svg'])).toEqual(['/images/products/here.svg']);
  });
});

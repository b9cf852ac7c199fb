import { useState } from 'react';
import { IMAGE_SIZES } from '../../../shared/image-variants.js';
import { ProductImage } from '../../ui/product-image.js';
import { PlayIcon } from '../../ui/icons.js';

function withAutoplay(url: string): string {
  try {
    const u = new URL(url, window.location.origin);
    u.searchParams.set('autoplay', '1');
    return u.toString();
  } catch {
    return url;
  }
}

/** The hero picture; when a video is configured, clicking it swaps in the embedded video. */
export function HeroMedia({ imageUrl, videoUrl, alt }: { imageUrl: string | undefined; videoUrl: string | undefined; alt: string }) {
  const [playing, setPlaying] = useState(false);
  const frame = 'aspect-[4/3] w-full overflow-hidden rounded-2xl bg-brand-100 shadow-lg';

  if (playing && videoUrl) {
    return (
      <div className={frame}>
        <iframe
          src={withAutoplay(videoUrl)}
          title="EcoClean video"
          width={800}
          height={600}
          className="h-full w-full"
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
        />
      </div>
    );
  }

  const picture = imageUrl ? (
    <ProductImage
      src={imageUrl}
      alt={videoUrl ? '' : alt}
      width={800}
      height={600}
      // Half the page from md, as the product gallery: an uploaded picture loads its copy of that size (preloaded: page-meta.ts).
      sizes={IMAGE_SIZES.gallery}
      priority
      className="h-full w-full object-cover"
    />
  ) : (
    <div className="h-full w-full bg-gradient-to-br from-brand-100 to-brand-300" />
  );

  if (!videoUrl) return <div className={frame}>{picture}</div>;

  return (
    <button
      type="button"
      aria-label="Play video"
      onClick={() => setPlaying(true)}
      className={`${frame} group relative block cursor-pointer focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-brand-600`}
    >
      {picture}
      <span className="absolute inset-0 flex items-center justify-center bg-black/10 transition-colors group-hover:bg-black/20">
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-white/95 text-brand-700 shadow-lg transition-transform group-hover:scale-105">
          <PlayIcon size={28} />
        </span>
      </span>
    </button>
  );
}

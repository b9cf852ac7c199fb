import { Link } from 'react-router';
import { settingValue, useSettings } from '../lib/get-settings.js';
import { paths } from '../lib/paths.js';
import { paragraphs } from '../lib/text.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { HydrateWhenVisible } from '../lib/hydrate-when-visible.js';
import { ProductImage } from '../ui/product-image.js';
import { Skeleton } from '../ui/skeleton.js';
import { useCategories } from './api/get-categories.js';
import { FEATURED_PRODUCTS_LIMIT, useFeaturedProducts } from './api/get-featured-products.js';
import { CategoryTile } from './components/category-tile.js';
import { HOME_HIDDEN_CATEGORY_ID } from './constants.js';
import { HeroMedia } from './components/hero-media.js';
import { ProductCard, ProductCardSkeleton, productGridClasses } from './components/product-card.js';

export default function HomePage() {
  const { data: settings, isPending: settingsPending } = useSettings();

  const heroTitle = settingValue(settings, 'homepage_hero_title');
  const heroSubtitle = settingValue(settings, 'homepage_hero_subtitle');
  const heroDescription = settingValue(settings, 'homepage_hero_description');

  return (
    <>
      <section aria-labelledby="hero-title" className="bg-gradient-to-b from-brand-50 to-white">
        <Container className="grid items-center gap-8 py-10 md:grid-cols-2 md:gap-12 md:py-16">
          <div className="space-y-5">
            {heroSubtitle && <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{heroSubtitle}</p>}
            <h1 id="hero-title" className="text-3xl font-bold leading-tight text-stone-900 sm:text-4xl lg:text-5xl">
              {heroTitle ?? (settingsPending ? <Skeleton className="h-12 w-3/4" /> : 'EcoClean')}
            </h1>
            {heroDescription && <p className="text-lg leading-relaxed text-stone-700">{heroDescription}</p>}
            <div className="flex flex-wrap gap-3">
              <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
                Shop Now
              </Link>
              <Link to={paths.about} className={buttonClasses('outline', 'lg')}>
                Our Story
              </Link>
            </div>
          </div>
          <HeroMedia
            imageUrl={settingValue(settings, 'homepage_hero_image')}
            videoUrl={settingValue(settings, 'hero_video_url')}
            alt={heroTitle ?? 'EcoClean'}
          />
        </Container>
      </section>

      {/* On a phone the first screen is the hero: the sections under it hydrate as they come near. */}
      <HydrateWhenVisible selector='section[aria-labelledby="featured-title"]' part={FeaturedProducts} />
      <HydrateWhenVisible selector='section[aria-labelledby="categories-title"]' part={ShopByCategory} />
      <HydrateWhenVisible selector='section[aria-labelledby="home-about-title"]' part={AboutEcoClean} />
    </>
  );
}

function AboutEcoClean() {
  const { data: settings } = useSettings();
  return (
    <section aria-labelledby="home-about-title" className="bg-brand-50 py-12 md:py-16">
      <Container className="grid items-center gap-8 md:grid-cols-2 md:gap-12">
        <div className="order-2 md:order-1">
          <ProductImage
            src={settingValue(settings, 'homepage_about_image')}
            alt=""
            width={800}
            height={600}
            className="aspect-[4/3] w-full rounded-2xl object-cover shadow"
          />
        </div>
        <div className="order-1 space-y-4 md:order-2">
          <h2 id="home-about-title" className="text-2xl font-bold text-stone-900 sm:text-3xl">
            {settingValue(settings, 'homepage_about_title') ?? 'About EcoClean'}
          </h2>
          {paragraphs(settingValue(settings, 'homepage_about_description')).map((p, i) => (
            <p key={i} className="leading-relaxed text-stone-700">
              {p}
            </p>
          ))}
          <Link to={paths.about} className={buttonClasses('primary', 'lg')}>
            Learn More
            <span className="sr-only"> about EcoClean</span>
          </Link>
        </div>
      </Container>
    </section>
  );
}

function FeaturedProducts() {
  const { data: products, isPending, isError } = useFeaturedProducts();
  return (
    <section aria-labelledby="featured-title" className="py-12 md:py-16">
      <Container>
        <h2 id="featured-title" className="mb-6 text-2xl font-bold text-stone-900 sm:text-3xl">
          Featured Products
        </h2>
        {isPending ? (
          <div className={productGridClasses}>
            {Array.from({ length: FEATURED_PRODUCTS_LIMIT }, (_, i) => (
              <ProductCardSkeleton key={i} />
            ))}
          </div>
        ) : isError || products.length === 0 ? (
          <p className="text-stone-700">No featured products available at this time.</p>
        ) : (
          <div className={productGridClasses}>
            {products.map((p, i) => (
              <ProductCard key={p.id} product={p} headingLevel="h3" eager={i < 2} />
            ))}
          </div>
        )}
      </Container>
    </section>
  );
}

function ShopByCategory() {
  const { data: categories, isPending } = useCategories();
  const visible = categories?.filter((c) => c.id !== HOME_HIDDEN_CATEGORY_ID) ?? [];
  if (!isPending && visible.length === 0) return null;
  return (
    <section aria-labelledby="categories-title" className="pb-12 md:pb-16">
      <Container>
        <h2 id="categories-title" className="mb-6 text-2xl font-bold text-stone-900 sm:text-3xl">
          Shop By Category
        </h2>
        <div className="grid grid-cols-2 gap-3 sm:gap-6 md:grid-cols-3">
          {isPending
            ? Array.from({ length: 6 }, (_, i) => <Skeleton key={i} className="aspect-[4/3] w-full" />)
            : visible.map((c) => <CategoryTile key={c.id} category={c} />)}
        </div>
      </Container>
    </section>
  );
}

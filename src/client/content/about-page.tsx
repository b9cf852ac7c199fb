import { Link } from 'react-router';
import type { PublicSettingKey } from '../../shared/schemas/catalog.js';
import { paths } from '../lib/paths.js';
import { paragraphs } from '../lib/text.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { ProductImage } from '../ui/product-image.js';
import { Spinner } from '../ui/spinner.js';
import { settingValue, useSettings, type SettingsMap } from '../lib/get-settings.js';

type SectionKeys = { title: PublicSettingKey; content: PublicSettingKey };

const SECTIONS: SectionKeys[] = [
  { title: 'about_history_title', content: 'about_history_content' },
  { title: 'about_values_title', content: 'about_values_content' },
  { title: 'about_commitment_title', content: 'about_commitment_content' },
];

function Paragraphs({ text }: { text: string | undefined }) {
  return (
    <>
      {paragraphs(text).map((p, i) => (
        <p key={i} className="leading-relaxed text-stone-700">
          {p}
        </p>
      ))}
    </>
  );
}

function ContentSection({ settings, keys }: { settings: SettingsMap; keys: SectionKeys }) {
  const title = settingValue(settings, keys.title);
  const content = settingValue(settings, keys.content);
  if (!title && !content) return null;
  return (
    <section className="space-y-4">
      {title && <h2 className="text-2xl font-bold text-stone-900">{title}</h2>}
      <Paragraphs text={content} />
    </section>
  );
}

export default function AboutPage() {
  const { data: settings, isPending } = useSettings();
  const title = settingValue(settings, 'about_title') ?? 'About Us';

  if (isPending) return <Spinner className="min-h-[50vh]" />;
  const s = settings ?? {};
  const missionTitle = settingValue(s, 'about_mission_title');
  const missionQuote = settingValue(s, 'about_mission_quote');

  return (
    <>
      <section className="bg-brand-50">
        <Container className="grid items-center gap-8 py-10 md:grid-cols-2 md:py-16">
          <h1 className="text-3xl font-bold text-stone-900 sm:text-4xl lg:text-5xl">{title}</h1>
          <ProductImage
            src={settingValue(s, 'about_hero_image')}
            alt=""
            width={800}
            height={500}
            priority
            className="aspect-[8/5] w-full rounded-2xl object-cover shadow"
          />
        </Container>
      </section>

      <Container narrow className="space-y-12 py-12">
        {(missionTitle || settingValue(s, 'about_mission_content') || missionQuote) && (
          <section className="space-y-4">
            {missionTitle && <h2 className="text-2xl font-bold text-stone-900">{missionTitle}</h2>}
            <Paragraphs text={settingValue(s, 'about_mission_content')} />
            {missionQuote && (
              <blockquote className="border-l-4 border-brand-600 bg-brand-50 px-5 py-4 text-lg italic text-brand-900">
                {missionQuote}
              </blockquote>
            )}
          </section>
        )}
        {SECTIONS.map((keys) => (
          <ContentSection key={keys.title} settings={s} keys={keys} />
        ))}

        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to={paths.products} className={buttonClasses('primary', 'lg')}>
            Shop Our Products
          </Link>
          <Link to={paths.contact} className={buttonClasses('outline', 'lg')}>
            Contact Us
          </Link>
        </div>
      </Container>
    </>
  );
}

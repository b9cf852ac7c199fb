import { FacebookIcon, YoutubeIcon } from './icons.js';
import { settingValue, type SettingsMap } from '../lib/get-settings.js';

const PLACEHOLDER_FACEBOOK = 'https://facebook.com';
const PLACEHOLDER_YOUTUBE = 'https://youtube.com';

type SocialLink = { name: 'Facebook' | 'YouTube'; href: string };

/** Facebook and YouTube from settings; when neither is set, the spec shows two placeholder links. */
function socialLinks(settings: SettingsMap | undefined): SocialLink[] {
  const facebook = settingValue(settings, 'social_media_facebook');
  const youtube = settingValue(settings, 'social_media_youtube');
  if (!facebook && !youtube) {
    return [
      { name: 'Facebook', href: PLACEHOLDER_FACEBOOK },
      { name: 'YouTube', href: PLACEHOLDER_YOUTUBE },
    ];
  }
  const links: SocialLink[] = [];
  if (facebook) links.push({ name: 'Facebook', href: facebook });
  if (youtube) links.push({ name: 'YouTube', href: youtube });
  return links;
}

export function SocialLinks({
  settings,
  tone = 'light',
  showLabels = false,
}: {
  settings: SettingsMap | undefined;
  tone?: 'light' | 'dark';
  showLabels?: boolean;
}) {
  const cls =
    tone === 'dark'
      ? 'text-stone-200 hover:bg-white/10 hover:text-white focus-visible:outline-white'
      : 'text-brand-700 hover:bg-brand-50 focus-visible:outline-brand-600';
  return (
    <ul className="flex flex-wrap items-center gap-2">
      {socialLinks(settings).map((link) => (
        <li key={link.name}>
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={showLabels ? undefined : link.name}
            className={`inline-flex items-center gap-2 rounded-md p-2 focus-visible:outline-2 focus-visible:outline-offset-2 ${cls}`}
          >
            {link.name === 'Facebook' ? <FacebookIcon size={22} /> : <YoutubeIcon size={22} />}
            {showLabels && <span className="font-medium">{link.name}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}

import { NextReleaseNote } from '../components/next-release-note.js';

export default function HomepageTab() {
  return <NextReleaseNote title="Homepage" what="homepage editor" />;
}

import { NextReleaseNote } from '../components/next-release-note.js';

export default function AboutTab() {
  return <NextReleaseNote title="About page" what="About page editor" />;
}

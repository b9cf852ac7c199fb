import { NextReleaseNote } from '../components/next-release-note.js';

export default function FaqsTab() {
  return <NextReleaseNote title="FAQs" what="FAQ editor" />;
}

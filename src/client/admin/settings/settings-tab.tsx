import { NextReleaseNote } from '../components/next-release-note.js';

export default function SettingsTab() {
  return <NextReleaseNote title="Settings" what="settings editor (contact info and social media)" />;
}

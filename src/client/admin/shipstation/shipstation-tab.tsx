import { NextReleaseNote } from '../components/next-release-note.js';

export default function ShipstationTab() {
  return <NextReleaseNote title="ShipStation" what="ShipStation connection panel (connection status and test order)" />;
}

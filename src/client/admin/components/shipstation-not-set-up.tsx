import { Link } from 'react-router';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';

/** Where the keys, the version and the on/off switch are entered (Settings → Integrations). */
export const SHIPSTATION_SETTINGS_HREF = '/admin?tab=settings&section=integrations';

/**
 * A label action tried before ShipStation is set up: the server's sentence, and a link to where it
 * is set up (Settings → Integrations), kept on screen until dismissed (a toast would vanish with the link).
 */
export function ShipStationNotSetUp({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <Alert
      variant="destructive"
      title="ShipStation is not set up"
      action={
        <Button size="sm" variant="outline" onClick={onDismiss}>
          Dismiss
        </Button>
      }
    >
      {message}{' '}
      <Link to={SHIPSTATION_SETTINGS_HREF} className="font-medium underline underline-offset-2">
        Open the ShipStation settings
      </Link>
    </Alert>
  );
}

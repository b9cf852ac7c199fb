import { Panel } from './admin-ui.js';

/** An honest placeholder for an editor that ships in a later release. */
export function NextReleaseNote({ title, what }: { title: string; what: string }) {
  return (
    <Panel title={title}>
      <p className="text-stone-700">
        The {what} arrives in the next release. Nothing on this tab can be changed yet.
      </p>
    </Panel>
  );
}

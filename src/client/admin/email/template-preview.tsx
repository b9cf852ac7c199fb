import { ListState } from '../components/admin-ui.js';
import { useEmailTemplatePreview } from '../api/messaging-api.js';

/**
 * The saved template rendered by the server with sample data. The HTML runs in a sandboxed frame
 * with no permissions at all (no scripts, no same-origin), so a template cannot touch the admin.
 */
export function TemplatePreview({ id, name, hasUnsavedChanges }: { id: string; name: string; hasUnsavedChanges: boolean }) {
  const { data, error, isPending, refetch } = useEmailTemplatePreview(id);
  return (
    <div className="flex flex-col gap-3">
      {hasUnsavedChanges && (
        <p className="rounded-md bg-yellow-50 px-3 py-2 text-sm text-yellow-900">
          This preview shows the saved version. Save your changes in Edit HTML to preview them.
        </p>
      )}
      <ListState isPending={isPending} error={error} onRetry={() => void refetch()} loadingLabel="Rendering preview">
        {data && (
          <>
            <p className="text-sm text-stone-700">Rendered with sample data.</p>
            <dl className="rounded-md border border-stone-200 bg-stone-50 px-3 py-2 text-sm">
              <dt className="inline font-semibold text-stone-900">Subject: </dt>
              <dd className="inline break-words text-stone-800">{data.subject}</dd>
            </dl>
            <iframe
              title={`Preview of ${name}`}
              sandbox=""
              srcDoc={data.html}
              className="h-[32rem] w-full rounded-md border border-stone-200 bg-white sm:h-[40rem]"
            />
            <details className="rounded-md border border-stone-200 text-sm">
              <summary className="cursor-pointer px-3 py-2 font-medium text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600">
                Plain-text version
              </summary>
              <pre className="max-h-80 overflow-auto whitespace-pre-wrap break-words border-t border-stone-200 px-3 py-2 font-mono text-xs text-stone-800">
                {data.text}
              </pre>
            </details>
          </>
        )}
      </ListState>
    </div>
  );
}

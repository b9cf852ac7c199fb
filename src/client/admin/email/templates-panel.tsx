import { useRef, useState } from 'react';
import { Button } from '../../ui/button.js';
import { PlusIcon } from '../../ui/icons.js';
import { useEmailTemplates, type EmailTemplate } from '../api/messaging-api.js';
import { ListState, Panel } from '../components/admin-ui.js';
import { SubTabs } from '../components/sub-tabs.js';
import { draftOf, sameDraft, TemplateEditor, type TemplateDraft } from './template-editor.js';
import { TemplatePreview } from './template-preview.js';
import { TemplateTestSend } from './template-test-send.js';

type Mode = 'preview' | 'edit' | 'test';
const MODES = [
  { id: 'preview', label: 'Preview' },
  { id: 'edit', label: 'Edit HTML' },
  { id: 'test', label: 'Test' },
] as const;
const NEW = '__new__';

/** Below the lg breakpoint the list sits above the workspace; bring the workspace into view. */
function revealOnNarrow(el: HTMLElement | null) {
  if (el && !window.matchMedia('(min-width: 1024px)').matches) el.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

function TemplateList({ items, selected, onSelect }: { items: EmailTemplate[]; selected: string | null; onSelect: (id: string) => void }) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Templates">
      {items.map((t) => {
        const current = t.id === selected;
        return (
          <li key={t.id}>
            <button
              type="button"
              onClick={() => onSelect(t.id)}
              aria-current={current ? 'true' : undefined}
              className={`flex w-full flex-col gap-0.5 rounded-lg border px-3 py-2.5 text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                current ? 'border-brand-600 bg-brand-50' : 'border-stone-200 bg-white hover:border-stone-300 hover:bg-stone-50'
              }`}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-semibold text-stone-900">{t.name}</span>
                {t.builtIn && (
                  <span className="shrink-0 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-800">Built-in</span>
                )}
              </span>
              <span className="line-clamp-2 break-words text-sm text-stone-700">{t.subject}</span>
              <span className="font-mono text-xs text-stone-700">{t.id}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Templates: the list, and for the chosen one its Preview, Edit HTML and Test views. */
export function TemplatesPanel() {
  const { data: items, error, isPending, refetch } = useEmailTemplates();
  const [chosen, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('preview');
  // Unsaved edits per template survive switching to Preview or Test and back.
  const [drafts, setDrafts] = useState<Record<string, TemplateDraft>>({});
  const workspace = useRef<HTMLDivElement>(null);

  // Start on the first template, and move off one that no longer exists.
  const creating = chosen === NEW;
  const selected = creating || !items || items.some((t) => t.id === chosen) ? chosen : (items[0]?.id ?? null);
  const template = items?.find((t) => t.id === selected) ?? null;

  const select = (id: string) => {
    setSelected(id);
    setMode(id === NEW ? 'edit' : 'preview');
    revealOnNarrow(workspace.current);
  };
  const dropDraft = (key: string) =>
    setDrafts((d) => {
      const rest = { ...d };
      delete rest[key];
      return rest;
    });

  const key = creating ? NEW : (template?.id ?? '');
  const stored = draftOf(creating ? null : template);
  const draft = drafts[key] ?? stored;
  const dirty = !sameDraft(draft, stored);
  const setDraft = (next: TemplateDraft) => setDrafts((d) => ({ ...d, [key]: next }));

  const editor = (
    <TemplateEditor
      key={key}
      template={creating ? null : template}
      draft={draft}
      onChange={setDraft}
      onSaved={(saved) => {
        dropDraft(key);
        setSelected(saved.id);
        setMode('preview');
      }}
      onDeleted={() => {
        dropDraft(key);
        setSelected(null);
        setMode('preview');
      }}
      onCancel={() => {
        dropDraft(key);
        if (creating) {
          setSelected(null);
          setMode('preview');
        }
      }}
    />
  );

  return (
    <Panel
      title="Email templates"
      actions={
        <Button variant="outline" onClick={() => select(NEW)} disabled={creating}>
          <PlusIcon size={16} /> New template
        </Button>
      }
    >
      <ListState
        isPending={isPending}
        error={error && !items ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading templates"
        isEmpty={items?.length === 0 && !creating}
        empty={<p>No templates yet. Create one with New template.</p>}
      >
        {items && (
          <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
            <TemplateList items={items} selected={selected} onSelect={select} />
            <div ref={workspace} className="min-w-0 scroll-mt-4">
              {creating ? (
                <div className="flex flex-col gap-4">
                  <h3 className="text-lg font-semibold text-stone-900">New template</h3>
                  {editor}
                </div>
              ) : template ? (
                <div className="flex flex-col gap-4">
                  <div>
                    <h3 className="break-words text-lg font-semibold text-stone-900">
                      {template.name}
                      {dirty && <span className="ml-2 align-middle text-sm font-medium text-yellow-900">(unsaved changes)</span>}
                    </h3>
                    <p className="break-words text-sm text-stone-700">
                      <span className="font-mono">{template.id}</span> · {template.subject}
                    </p>
                  </div>
                  <SubTabs label={`${template.name} template`} tabs={MODES} selected={mode} onSelect={setMode}>
                    {mode === 'preview' && <TemplatePreview id={template.id} name={template.name} hasUnsavedChanges={dirty} />}
                    {mode === 'edit' && editor}
                    {mode === 'test' && <TemplateTestSend templateId={template.id} hasUnsavedChanges={dirty} />}
                  </SubTabs>
                </div>
              ) : null}
            </div>
          </div>
        )}
      </ListState>
    </Panel>
  );
}

import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { refusesSku } from '../../../shared/schemas/admin/products.js';
import { type AdminProductVariants, type ProductVariantsInput } from '../../../shared/schemas/admin/variants.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { useSaveProductVariants } from '../api/save-product-variants.js';
import { ConfirmDialog } from '../components/admin-ui.js';
import { UnplacedErrors } from '../components/form-errors.js';
import { OptionsEditor, VariantsGrid } from './variants-field.js';
import {
  addMissingVariants,
  addOption,
  addValue,
  draftLabel,
  draftOf,
  missingCombinations,
  planRemoveOption,
  planRemoveValue,
  removeOption,
  removeValue,
  switchOffValue,
  valueProblem,
  VariantsForm,
  type SavedVariant,
  type VariantDraft,
  type VariantsDraft,
} from './variants-model.js';

/** A question before a change the owner may not expect (or, without `onConfirm`, why it cannot be made). */
type Ask = { title: string; message: string; confirmLabel?: string; confirmVariant?: 'destructive' | 'primary'; onConfirm?: () => void };

const labels = (vs: readonly VariantDraft[]) => vs.map((v) => draftLabel(v.options)).join('; ');
const variantsWord = (n: number) => `${n} variant${n === 1 ? '' : 's'}`;

/** "A", "A and B", "A, B and C". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Why variants with history stay: sold (an order names them), or stock moved (received, counted, taken). */
function whyKept(vs: readonly VariantDraft[], saved: ReadonlyMap<string, SavedVariant>): string {
  const sold = vs.filter((v) => saved.get(v.variantId)?.sold).map((v) => draftLabel(v.options));
  const moved = vs.filter((v) => !saved.get(v.variantId)?.sold).map((v) => draftLabel(v.options));
  const parts = [
    sold.length > 0 ? `${listOf(sold)} ${sold.length === 1 ? 'has' : 'have'} been sold` : '',
    moved.length > 0 ? `${listOf(moved)} ${moved.length === 1 ? 'has' : 'have'} stock history (units received, counted or taken)` : '',
  ].filter(Boolean);
  return `${parts.join(', and ')}, so ${vs.length === 1 ? 'it stays' : 'they stay'} in the shop’s records`;
}

/**
 * The product's options and variants, edited together and saved at once (PUT …/variants): the
 * options and their values above, the generated grid of variants below. Adding a value offers the
 * combinations it makes; removing one asks first, and a variant with history is switched off
 * instead of removed. The server's refusals (a SKU used elsewhere, a sold variant left out) show
 * in the dialog, at the SKU they name or above the buttons.
 */
export function VariantsDialog({
  product,
  set,
  startWithOption = false,
  onSaved,
  onClose,
}: {
  product: { id: string; name: string; images: readonly string[]; imageAlts?: readonly string[] | undefined };
  set: AdminProductVariants;
  /** Opened by "Add options" on a product without any: the first option is there to fill in. */
  startWithOption?: boolean;
  /** The set as the server saved it (new variants with their ids). */
  onSaved?: (set: AdminProductVariants) => void;
  onClose: () => void;
}) {
  const [saved] = useState(() => new Map(set.variants.map((v) => [v.id, v])));
  const [start] = useState(() => {
    const d = draftOf(set);
    return startWithOption && d.options.length === 0 ? addOption(d) : d;
  });
  // The options' keys on screen, in order: a removed option's chip input goes with it.
  const [optionKeys, setOptionKeys] = useState(() => start.options.map((_, i) => i));
  const nextOptionKey = useRef(start.options.length);
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    setError,
    formState: { errors, isSubmitted },
  } = useForm({ resolver: zodResolver(VariantsForm), defaultValues: start });
  const variantsArray = useFieldArray({ control, name: 'variants' });
  const options = useWatch({ control, name: 'options' });
  const rows = useWatch({ control, name: 'variants' });
  const save = useSaveProductVariants(product.id);
  const busy = save.isPending;
  const [serverError, setServerError] = useState<string | null>(null);
  const [ask, setAsk] = useState<Ask | null>(null);
  /** The id of an input to focus once it is drawn. */
  const [focusNext, setFocusNext] = useState<string | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  // After a change that draws new inputs, the focus goes to the first of them once it is on screen.
  useEffect(() => {
    if (!focusNext) return;
    const el = document.getElementById(focusNext);
    if (!el) return;
    el.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the focus has moved; the request is spent
    setFocusNext(null);
  }, [focusNext, rows, options]);

  useEffect(() => {
    if (serverError) errorRef.current?.scrollIntoView({ block: 'nearest' });
  }, [serverError]);

  const draft = (): VariantsDraft => getValues();
  const apply = (next: VariantsDraft, current: VariantsDraft) => {
    setServerError(null);
    setValue('options', next.options, { shouldValidate: isSubmitted });
    if (next.variants !== current.variants) variantsArray.replace(next.variants);
  };

  const onAddValue = (index: number, value: string): string | null => {
    const current = draft();
    const option = current.options[index];
    if (!option) return null;
    const problem = valueProblem(option, value);
    if (problem) return problem;
    apply(addValue(current, index, value), current);
    return null;
  };

  const onRemoveValue = (index: number, value: string) => {
    const current = draft();
    const name = current.options[index]?.name.trim() || `option ${index + 1}`;
    const plan = planRemoveValue(current, index, value, saved);
    if (plan.removed.length === 0) {
      apply(removeValue(current, index, value), current);
      return setFocusNext(`option-${index}-value`);
    }
    if (plan.blocked.length > 0) {
      return setAsk({
        title: `Switch off ${value} instead?`,
        message: `${whyKept(plan.blocked, saved)}. Keep ${value} and switch off its ${variantsWord(plan.removed.length)} (${labels(plan.removed)}) instead: the shop stops selling them. Nothing changes in the shop until you save.`,
        confirmLabel: `Switch off ${value}`,
        confirmVariant: 'primary',
        onConfirm: () => apply(switchOffValue(current, index, value), current),
      });
    }
    setAsk({
      title: `Remove ${value}?`,
      message: `This takes ${value} out of ${name}, with its ${variantsWord(plan.removed.length)}: ${labels(plan.removed)}. Nothing changes in the shop until you save.`,
      confirmLabel: `Remove ${value}`,
      onConfirm: () => {
        apply(removeValue(current, index, value), current);
        setFocusNext(`option-${index}-value`);
      },
    });
  };

  const onRemoveOption = (index: number) => {
    const current = draft();
    const option = current.options[index];
    if (!option) return;
    const name = option.name.trim() || `option ${index + 1}`;
    const plan = planRemoveOption(current, index, saved);
    if (plan.blocked.length > 0) {
      return setAsk({
        title: `${name} cannot be removed`,
        message: `Without ${name}, variants with history would become one. ${whyKept(plan.blocked, saved)}. Switch off the variants you no longer sell instead.`,
      });
    }
    const remove = () => {
      apply(removeOption(current, index, saved), current);
      setOptionKeys((keys) => keys.filter((_, i) => i !== index));
      setFocusNext('add-option');
    };
    if (option.values.length === 0) return remove();
    setAsk({
      title: `Remove ${name}?`,
      message:
        plan.removed.length > 0
          ? `Variants that differ only by ${name} become one. ${variantsWord(plan.removed.length)} will be removed: ${labels(plan.removed)}. The others keep their stock. Nothing changes in the shop until you save.`
          : `No variant is removed: each keeps its stock. Nothing changes in the shop until you save.`,
      confirmLabel: `Remove ${name}`,
      onConfirm: remove,
    });
  };

  const current: VariantsDraft = { options, variants: rows };
  const ready = options.length > 0 && options.every((o) => o.values.length > 0);
  const missing = ready ? missingCombinations(current) : [];
  const createMissing = () => {
    const now = draft();
    const next = addMissingVariants(now);
    apply(next, now);
    const first = next.variants.findIndex((v) => v.variantId === '' && !now.variants.includes(v));
    if (first >= 0) setFocusNext(`variant-${first}-sku`);
  };

  const submit = (body: ProductVariantsInput) => {
    setServerError(null);
    save.mutate(body, {
      onSuccess: (set) => {
        toast({ title: 'Options and variants saved' });
        onSaved?.(set);
        onClose();
      },
      // A SKU another product uses is said at that SKU; any other refusal (a sold variant left
      // out, a variant removed meanwhile) above the buttons.
      onError: (err) => {
        const message = messageOf(err);
        const at = getValues('variants').findIndex((v) => refusesSku(message, v.sku));
        if (at >= 0) setError(`variants.${at}.sku`, { message }, { shouldFocus: true });
        else setServerError(message);
      },
    });
  };

  const placed = [...options.map((_, i) => `options.${i}`), ...rows.map((_, i) => `variants.${i}`)];
  const enabledCount = rows.filter((r) => r.enabled).length;

  return (
    <Dialog
      open
      onClose={onClose}
      title="Options and variants"
      className="max-w-6xl!"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="variants-form" disabled={busy}>
            {busy ? 'Saving…' : 'Save options and variants'}
          </Button>
        </>
      }
    >
      <form id="variants-form" onSubmit={(e) => void handleSubmit(submit)(e)} noValidate>
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-6">
          <p className="text-sm text-stone-700">
            <span className="font-medium text-stone-900">{product.name}</span>. Everything here is saved together with Save options and
            variants. A variant that has been sold stays in the records: switch it off to stop selling it.
          </p>
          <OptionsEditor
            options={options}
            register={register}
            errors={errors}
            disabled={busy}
            keys={optionKeys}
            onAddOption={() => {
              const now = draft();
              apply(addOption(now), now);
              const key = nextOptionKey.current++;
              setOptionKeys((keys) => [...keys, key]);
              setFocusNext(`option-${now.options.length}-name`);
            }}
            onRemoveOption={onRemoveOption}
            onAddValue={onAddValue}
            onRemoveValue={onRemoveValue}
          />
          {missing.length > 0 && (
            <div role="status" className="flex flex-col gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 sm:flex-row sm:items-center">
              <p className="min-w-0 flex-1 text-sm text-sky-950">
                {missing.length === 1 ? '1 combination has' : `${missing.length} combinations have`} no variant yet:{' '}
                {missing.map((c) => draftLabel(c)).join('; ')}.
              </p>
              <Button variant="outline" onClick={createMissing} disabled={busy}>
                Create {variantsWord(missing.length)}
              </Button>
            </div>
          )}
          <section aria-labelledby="variants-grid-title" className="flex min-w-0 flex-col gap-3">
            <div>
              <h3 id="variants-grid-title" className="text-lg font-semibold text-stone-900">
                Variants
              </h3>
              <p className="text-sm text-stone-700">
                {variantsWord(rows.length)}, {enabledCount} on sale. The compare-at price is the higher “was” price the shop shows struck
                through; leave it empty for none. Stock changes after saving go through the product’s Stock section.
              </p>
            </div>
            <VariantsGrid
              keys={variantsArray.fields.map((f) => f.id)}
              rows={rows}
              saved={saved}
              images={product.images.map((url, i) => ({ url, alt: product.imageAlts?.[i] ?? '' }))}
              productImage={product.images[0]}
              register={register}
              control={control}
              errors={errors}
              disabled={busy}
              onRemove={(i) => {
                setServerError(null);
                variantsArray.remove(i);
                // The focus goes to the row that takes its place (or the one above the last).
                if (rows.length > 1) setFocusNext(`variant-${Math.min(i, rows.length - 2)}-sku`);
              }}
            />
          </section>
          <UnplacedErrors id="variants-form-errors" errors={errors} placed={placed} />
          {serverError && (
            <div ref={errorRef} role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
              <p className="font-medium">Not saved</p>
              <p>{serverError}</p>
            </div>
          )}
        </fieldset>
      </form>
      <ConfirmDialog
        open={ask?.onConfirm !== undefined}
        title={ask?.title}
        message={ask?.message ?? ''}
        confirmLabel={ask?.confirmLabel}
        busyLabel="Working…"
        confirmVariant={ask?.confirmVariant}
        onClose={() => setAsk(null)}
        onConfirm={() => {
          ask?.onConfirm?.();
          setAsk(null);
        }}
      />
      <Dialog open={ask !== null && ask.onConfirm === undefined} onClose={() => setAsk(null)} title={ask?.title ?? ''}>
        <p className="text-stone-800">{ask?.message}</p>
        <div className="mt-6 flex justify-end">
          <Button onClick={() => setAsk(null)}>OK</Button>
        </div>
      </Dialog>
    </Dialog>
  );
}

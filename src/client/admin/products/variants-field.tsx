import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { Controller, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { VARIANT_LIMITS } from '../../../shared/schemas/admin/variants.js';
import { UNITS } from '../../../shared/unit-price.js';
import { Button } from '../../ui/button.js';
import { CloseIcon, PlusIcon } from '../../ui/icons.js';
import { fieldAria, inputCls, Switch } from '../components/admin-ui.js';
import { flattenErrors } from '../components/form-errors.js';
import { StockBadge } from './stock-badge.js';
import {
  canRemoveVariant,
  draftLabel,
  type OptionDraft,
  type SavedVariant,
  type VariantDraft,
  type VariantsBody,
  type VariantsForm,
} from './variants-model.js';

/** Names the owner is likely to give an option; any other is fine. */
const OPTION_NAME_SUGGESTIONS = ['Size', 'Colour', 'Scent', 'Material', 'Style', 'Pack'];

/** An error line under an input, the id its input's aria-describedby names. */
function ErrorLine({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-red-700">
      {message}
    </p>
  );
}

/** One option: its name, its values as chips (each removable) and an input that adds one (Enter or Add). */
function OptionRow({
  index,
  option,
  register,
  errors,
  onAddValue,
  onRemoveValue,
  onRemove,
  disabled,
}: {
  index: number;
  option: OptionDraft;
  register: UseFormRegister<VariantsForm>;
  errors: FieldErrors<VariantsForm>;
  /** Adds the value; answers why not (shown under the input), or null. */
  onAddValue: (value: string) => string | null;
  onRemoveValue: (value: string) => void;
  onRemove: () => void;
  disabled: boolean;
}) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = `option-${index}`;
  const name = option.name.trim() || `option ${index + 1}`;
  const nameError = errors.options?.[index]?.name?.message;
  const valueErrors = errors.options?.[index]?.values;
  // "Give each option at least one value" (the list), or a message about one of its values.
  const valuesError =
    valueErrors?.message ??
    valueErrors?.root?.message ??
    (Array.isArray(valueErrors) ? valueErrors.find((e) => e?.message)?.message : undefined) ??
    undefined;
  const addError = problem ?? valuesError;
  const add = () => {
    const why = onAddValue(text);
    setProblem(why);
    if (!why) setText('');
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the value (it must not send the whole form).
    if (e.key !== 'Enter') return;
    e.preventDefault();
    add();
  };
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-lg border border-stone-200 p-3">
      <div className="flex items-center justify-between gap-2">
        <h4 id={`${id}-title`} className="text-sm font-semibold text-stone-900">
          Option {index + 1}
          {option.name.trim() && <span className="font-normal text-stone-700">: {option.name.trim()}</span>}
        </h4>
        <Button variant="ghost" size="sm" className="text-red-800 hover:bg-red-50" onClick={onRemove} disabled={disabled}>
          Remove option<span className="sr-only"> {name}</span>
        </Button>
      </div>
      <div className="grid min-w-0 gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-sm font-medium text-stone-900">
            Name<span className="sr-only"> of option {index + 1}</span>
          </label>
          <input
            id={`${id}-name`}
            className={inputCls}
            list="option-name-suggestions"
            maxLength={VARIANT_LIMITS.optionName}
            placeholder="Size, Colour…"
            autoComplete="off"
            {...register(`options.${index}.name`)}
            {...fieldAria(nameError, `${id}-name-error`)}
          />
          <ErrorLine id={`${id}-name-error`} message={nameError} />
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-value`} className="text-sm font-medium text-stone-900">
            Values<span className="sr-only"> of {name}: type one and press Enter</span>
          </label>
          {option.values.length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label={`Values of ${name}`}>
              {option.values.map((v) => (
                <li
                  key={v}
                  className="inline-flex max-w-full items-center gap-1 rounded-full bg-stone-100 py-0.5 pr-0.5 pl-3 text-sm text-stone-900"
                >
                  <span className="min-w-0 break-words">{v}</span>
                  <button
                    type="button"
                    onClick={() => onRemoveValue(v)}
                    disabled={disabled}
                    aria-label={`Remove ${v} from ${name}`}
                    className="rounded-full p-1.5 text-stone-700 hover:bg-stone-200 hover:text-red-800 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
                  >
                    <CloseIcon size={14} />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="flex min-w-0 gap-2">
            <input
              id={`${id}-value`}
              className={inputCls}
              value={text}
              maxLength={VARIANT_LIMITS.value}
              placeholder={option.values.length === 0 ? 'First value, e.g. Small' : 'Another value'}
              autoComplete="off"
              disabled={disabled}
              onChange={(e) => {
                setText(e.target.value);
                setProblem(null);
              }}
              onKeyDown={onKey}
              {...fieldAria(addError, `${id}-value-error`)}
            />
            <Button variant="outline" onClick={add} disabled={disabled}>
              Add<span className="sr-only"> value to {name}</span>
            </Button>
          </div>
          <ErrorLine id={`${id}-value-error`} message={addError} />
        </div>
      </div>
    </li>
  );
}

/** The product's options (at most three): names and values, added and removed. */
export function OptionsEditor({
  options,
  keys,
  register,
  errors,
  disabled,
  onAddOption,
  onRemoveOption,
  onAddValue,
  onRemoveValue,
}: {
  options: OptionDraft[];
  /** A stable key per option (an option removed shifts the others' indexes). */
  keys: readonly number[];
  register: UseFormRegister<VariantsForm>;
  errors: FieldErrors<VariantsForm>;
  disabled: boolean;
  onAddOption: () => void;
  onRemoveOption: (index: number) => void;
  onAddValue: (index: number, value: string) => string | null;
  onRemoveValue: (index: number, value: string) => void;
}) {
  return (
    <section aria-labelledby="variant-options-title" className="flex min-w-0 flex-col gap-3">
      <div>
        <h3 id="variant-options-title" className="text-lg font-semibold text-stone-900">
          Options
        </h3>
        <p className="text-sm text-stone-700">
          Up to {VARIANT_LIMITS.options} options, such as Size or Colour. Each combination of their values can be a variant with its own
          price, SKU and stock.
        </p>
      </div>
      <datalist id="option-name-suggestions">
        {OPTION_NAME_SUGGESTIONS.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      {options.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label="Options">
          {options.map((o, i) => (
            <OptionRow
              key={keys[i] ?? `at-${i}`}
              index={i}
              option={o}
              register={register}
              errors={errors}
              disabled={disabled}
              onAddValue={(v) => onAddValue(i, v)}
              onRemoveValue={(v) => onRemoveValue(i, v)}
              onRemove={() => onRemoveOption(i)}
            />
          ))}
        </ul>
      )}
      {options.length < VARIANT_LIMITS.options && (
        <div>
          <Button id="add-option" variant="outline" onClick={onAddOption} disabled={disabled}>
            <PlusIcon size={16} /> {options.length === 0 ? 'Add an option' : 'Add another option'}
          </Button>
        </div>
      )}
    </section>
  );
}

/** The grid's columns from 1024 px up: the header row and every variant row share them. */
const GRID =
  'lg:grid lg:grid-cols-[minmax(7rem,1.2fr)_minmax(8rem,1.3fr)_5.5rem_5.5rem_4.5rem_7rem_minmax(6rem,0.9fr)_5.5rem_4.75rem_3.75rem_5rem] lg:items-start lg:gap-2';
const COLUMNS = ['Variant', 'SKU', 'Price ($)', 'Compare-at ($)', 'Weight (lbs)', 'Unit size', 'Image', 'Stock', 'Low at', 'On sale', ''];

/** One input of a variant: its label (the column heading on a wide screen, for screen readers always with the variant). */
function Cell({
  id,
  label,
  variant,
  error,
  wide = false,
  children,
}: {
  id: string;
  label: string;
  variant: string;
  error: string | undefined;
  /** The whole card's width on a phone (a SKU, an image's name); two of the four columns otherwise. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${wide ? 'col-span-4 sm:col-span-2' : 'col-span-2'} lg:col-span-1`}>
      <label htmlFor={id} className="text-xs font-medium text-stone-700 lg:sr-only">
        {label}
        <span className="sr-only"> of {variant}</span>
      </label>
      {children}
      <ErrorLine id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * The generated grid: one row per variant, its SKU, price, compare-at price, weight, image (one of
 * the product's), stock (opening stock for a new one), low-stock threshold and whether it is on
 * sale. A table's columns from 1024 px up, a card per variant below.
 */
export function VariantsGrid({
  keys,
  rows,
  saved,
  images,
  productImage,
  register,
  control,
  errors,
  disabled,
  onRemove,
}: {
  /** A stable key per row (the field array's). */
  keys: string[];
  rows: VariantDraft[];
  saved: ReadonlyMap<string, SavedVariant>;
  /** The product's gallery, in order, with alt texts. */
  images: { url: string; alt: string }[];
  /** Shown for a variant without an image of its own. */
  productImage: string | undefined;
  register: UseFormRegister<VariantsForm>;
  control: Control<VariantsForm, unknown, VariantsBody>;
  errors: FieldErrors<VariantsForm>;
  disabled: boolean;
  onRemove: (index: number) => void;
}) {
  const imageName = (url: string, i: number) => `Image ${i + 1}${images[i]?.alt ? `: ${images[i].alt}` : ''}`;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div aria-hidden="true" className={`hidden border-b border-stone-200 pb-1 ${GRID}`}>
        {COLUMNS.map((c, i) => (
          <span key={i} className="text-xs font-semibold uppercase tracking-wide text-stone-700">
            {c}
          </span>
        ))}
      </div>
      <ul className="flex flex-col gap-3 lg:gap-2" aria-label="Variants">
        {rows.map((row, i) => {
          const key = keys[i] ?? String(i);
          const id = `variant-${i}`;
          const label = draftLabel(row.options);
          const known = row.variantId ? saved.get(row.variantId) : undefined;
          const e = errors.variants?.[i];
          // The combination (listed twice, a value not among the options') or the id the server did not know.
          const rowError = flattenErrors(e ?? {}).find((x) => x.path.startsWith('options') || x.path === 'id')?.message;
          const shown = row.image || productImage;
          return (
            <li key={key}>
              <div
                role="group"
                aria-labelledby={`${id}-label`}
                className={`grid grid-flow-row-dense grid-cols-4 gap-3 rounded-lg border border-stone-200 p-3 sm:grid-cols-6 lg:rounded-none lg:border-0 lg:border-b lg:border-stone-100 lg:px-0 lg:py-2 ${GRID} ${row.enabled ? '' : 'bg-stone-50'}`}
              >
                {/* Below 1024 px the card's first line: the variant, and Remove at its right (the card's grid is 4, or 6, columns). */}
                <div className="col-span-3 row-start-1 flex min-w-0 items-center gap-2 sm:col-span-5 lg:col-span-1">
                  {shown ? (
                    <img src={shown} alt="" width={40} height={40} className="h-10 w-10 shrink-0 rounded object-cover" />
                  ) : (
                    <span aria-hidden="true" className="h-10 w-10 shrink-0 rounded bg-stone-100" />
                  )}
                  <div className="min-w-0">
                    <p id={`${id}-label`} className="break-words text-sm font-semibold text-stone-900">
                      {label}
                    </p>
                    <p className="flex flex-wrap gap-1 text-xs">
                      {!row.variantId && <span className="rounded-full bg-sky-100 px-2 py-0.5 font-semibold text-sky-900">New</span>}
                      {known?.sold && (
                        <span
                          className="rounded-full bg-stone-200 px-2 py-0.5 font-semibold text-stone-800"
                          title="Sold: it can be switched off, not removed"
                        >
                          Sold
                        </span>
                      )}
                      {!row.enabled && <span className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">Off</span>}
                    </p>
                    <ErrorLine id={`${id}-row-error`} message={rowError} />
                  </div>
                </div>
                <Cell id={`${id}-sku`} label="SKU" variant={label} error={e?.sku?.message} wide>
                  <input
                    id={`${id}-sku`}
                    className={`${inputCls} font-mono`}
                    maxLength={VARIANT_LIMITS.sku}
                    autoComplete="off"
                    {...register(`variants.${i}.sku`)}
                    {...fieldAria(e?.sku?.message, `${id}-sku-error`)}
                  />
                </Cell>
                <Cell id={`${id}-price`} label="Price ($)" variant={label} error={e?.priceCents?.message}>
                  <input
                    id={`${id}-price`}
                    type="number"
                    min="0"
                    step="0.01"
                    inputMode="decimal"
                    className={inputCls}
                    {...register(`variants.${i}.priceCents`)}
                    {...fieldAria(e?.priceCents?.message, `${id}-price-error`)}
                  />
                </Cell>
                <Cell id={`${id}-compare`} label="Compare-at ($)" variant={label} error={e?.compareAtCents?.message}>
                  <input
                    id={`${id}-compare`}
                    type="number"
                    min="0"
                    step="0.01"
                    inputMode="decimal"
                    className={inputCls}
                    {...register(`variants.${i}.compareAtCents`)}
                    {...fieldAria(e?.compareAtCents?.message, `${id}-compare-error`)}
                  />
                </Cell>
                <Cell id={`${id}-weight`} label="Weight (lbs)" variant={label} error={e?.weightLbs?.message}>
                  <input
                    id={`${id}-weight`}
                    type="number"
                    min="0"
                    step="0.01"
                    inputMode="decimal"
                    className={inputCls}
                    {...register(`variants.${i}.weightLbs`)}
                    {...fieldAria(e?.weightLbs?.message, `${id}-weight-error`)}
                  />
                </Cell>
                <Cell id={`${id}-unit-size`} label="Unit size" variant={label} error={e?.unitQuantity?.message ?? e?.unit?.message}>
                  <span className="flex gap-1">
                    <input
                      id={`${id}-unit-size`}
                      type="number"
                      min="0"
                      step="any"
                      inputMode="decimal"
                      placeholder="16"
                      className={`${inputCls} min-w-0`}
                      {...register(`variants.${i}.unitQuantity`)}
                      {...fieldAria(e?.unitQuantity?.message ?? e?.unit?.message, `${id}-unit-size-error`)}
                    />
                    <select
                      aria-label={`Unit of ${label}`}
                      className={`${inputCls} max-w-[4.25rem] shrink-0`}
                      {...register(`variants.${i}.unit`)}
                      {...fieldAria(e?.unit?.message, `${id}-unit-size-error`)}
                    >
                      <option value="">—</option>
                      {UNITS.map((u) => (
                        <option key={u} value={u}>
                          {u}
                        </option>
                      ))}
                    </select>
                  </span>
                </Cell>
                <Cell id={`${id}-image`} label="Image" variant={label} error={e?.image?.message} wide>
                  <select
                    id={`${id}-image`}
                    className={inputCls}
                    {...register(`variants.${i}.image`)}
                    {...fieldAria(e?.image?.message, `${id}-image-error`)}
                  >
                    <option value="">Main image</option>
                    {images.map((im, n) => (
                      <option key={im.url} value={im.url}>
                        {imageName(im.url, n)}
                      </option>
                    ))}
                  </select>
                </Cell>
                {known ? (
                  <div className="col-span-2 flex min-w-0 flex-col gap-1 lg:col-span-1">
                    <span className="text-xs font-medium text-stone-700 lg:sr-only">Stock</span>
                    <span className="flex min-h-10 flex-wrap items-center gap-1 text-sm text-stone-900">
                      <span className="tabular-nums">{known.stock.onHand} on hand</span>
                      <StockBadge onHand={known.stock.onHand} threshold={known.stock.lowStockThreshold} />
                    </span>
                  </div>
                ) : (
                  <Cell id={`${id}-opening`} label="Opening stock" variant={label} error={e?.openingStock?.message}>
                    <input
                      id={`${id}-opening`}
                      type="number"
                      min="0"
                      step="1"
                      inputMode="numeric"
                      className={inputCls}
                      {...register(`variants.${i}.openingStock`)}
                      {...fieldAria(e?.openingStock?.message, `${id}-opening-error`)}
                    />
                  </Cell>
                )}
                <Cell id={`${id}-threshold`} label="Low-stock threshold" variant={label} error={e?.lowStockThreshold?.message}>
                  <input
                    id={`${id}-threshold`}
                    type="number"
                    min="0"
                    step="1"
                    inputMode="numeric"
                    className={inputCls}
                    {...register(`variants.${i}.lowStockThreshold`)}
                    {...fieldAria(e?.lowStockThreshold?.message, `${id}-threshold-error`)}
                  />
                </Cell>
                <div className="col-span-2 flex min-w-0 flex-col gap-1 lg:col-span-1">
                  <span aria-hidden="true" className="text-xs font-medium text-stone-700 lg:sr-only">
                    On sale
                  </span>
                  <span className="flex min-h-10 items-center">
                    <Controller
                      control={control}
                      name={`variants.${i}.enabled`}
                      render={({ field }) => (
                        <Switch label={`On sale: ${label}`} checked={field.value} onChange={field.onChange} disabled={disabled} />
                      )}
                    />
                  </span>
                </div>
                <div className="col-start-4 row-start-1 flex min-h-10 items-center justify-end sm:col-start-6 lg:col-start-auto lg:row-start-auto lg:justify-start">
                  {canRemoveVariant(row, saved) ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-red-800 hover:bg-red-50"
                      onClick={() => onRemove(i)}
                      disabled={disabled}
                    >
                      Remove<span className="sr-only"> {label}</span>
                    </Button>
                  ) : (
                    <span className="text-xs text-stone-600">Has history: kept</span>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

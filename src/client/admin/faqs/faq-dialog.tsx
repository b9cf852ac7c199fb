import { useState, type FormEvent } from 'react';
import type { Faq } from '../../../shared/schemas/catalog.js';
import { CONTENT_ADMIN_MESSAGES, FaqInput } from '../../../shared/schemas/content.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, FormFooter, inputCls } from '../components/admin-ui.js';
import { useSaveFaq } from '../content/content-api.js';

export const NO_CATEGORY = 'No Category';
/** Filled in when shoppers read the answer, so it stays true when the shipping options or the tax rule change (shop-facts.ts). */
const ANSWER_HINT =
  'Leave a blank line between paragraphs. {{shipping_rates}}, {{free_shipping}} and {{tax_rule}} show the shop’s current shipping rates, free-shipping minimum and tax rule.';
const NONE = '__none__';
const NEW = '__new__';

export function distinctCategories(faqs: Faq[]): string[] {
  const seen = new Set<string>();
  for (const f of faqs) if (f.category) seen.add(f.category);
  return [...seen];
}

type Values = { question: string; answer: string; choice: string; newCategory: string };
type Errors = Partial<Record<'question' | 'answer' | 'newCategory', string>>;

/** Add or edit one FAQ; the category is an existing one, 'No Category', or a newly typed one. */
export function FaqDialog({
  faq,
  categories,
  defaultCategory,
  onClose,
}: {
  faq: Faq | null;
  categories: string[];
  defaultCategory: string | null;
  onClose: () => void;
}) {
  const save = useSaveFaq();
  const [values, setValues] = useState<Values>(() => {
    const current = faq ? faq.category : defaultCategory;
    return { question: faq?.question ?? '', answer: faq?.answer ?? '', choice: current ?? NONE, newCategory: '' };
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Values>(k: K, v: Values[K]) => {
    setValues((prev) => ({ ...prev, [k]: v }));
    setErrors((prev) => ({ ...prev, [k]: undefined }));
  };
  // The edited FAQ's category is always offered, even if it is its only member.
  const options =
    values.choice !== NONE && values.choice !== NEW && !categories.includes(values.choice) ? [...categories, values.choice] : categories;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const category = values.choice === NEW ? values.newCategory : values.choice === NONE ? null : values.choice;
    const found: Errors = {};
    const parsed = FaqInput.safeParse({ question: values.question, answer: values.answer, category });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const k = issue.path[0] === 'category' ? 'newCategory' : issue.path[0];
        if ((k === 'question' || k === 'answer' || k === 'newCategory') && !found[k]) found[k] = issue.message;
      }
    }
    if (values.choice === NEW && !values.newCategory.trim()) found.newCategory = 'Category name is required';
    setErrors(found);
    const first = (['question', 'answer', 'newCategory'] as const).find((k) => found[k]);
    if (first || !parsed.success) {
      if (first) document.getElementById(`faq-${first}`)?.focus();
      return;
    }
    save.mutate(
      { id: faq?.id ?? null, body: parsed.data },
      {
        onSuccess: () => {
          toast({ title: faq ? CONTENT_ADMIN_MESSAGES.faqUpdated : CONTENT_ADMIN_MESSAGES.faqCreated });
          onClose();
        },
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      },
    );
  };

  const aria = (k: keyof Errors) => ({ 'aria-invalid': Boolean(errors[k]), 'aria-describedby': errors[k] ? `faq-${k}-error` : undefined });

  return (
    <Dialog open onClose={onClose} title={faq ? 'Edit FAQ' : 'Add FAQ'}>
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
          <Field label="Question" required htmlFor="faq-question" error={errors.question}>
            <input
              id="faq-question"
              className={`${inputCls} aria-[invalid=true]:border-red-700`}
              value={values.question}
              onChange={(e) => set('question', e.target.value)}
              required
              {...aria('question')}
            />
          </Field>
          <Field label="Answer" required htmlFor="faq-answer" error={errors.answer} hint={ANSWER_HINT}>
            <textarea
              id="faq-answer"
              rows={6}
              className={`${inputCls} aria-[invalid=true]:border-red-700`}
              value={values.answer}
              onChange={(e) => set('answer', e.target.value)}
              required
              {...aria('answer')}
            />
          </Field>
          <Field label="Category" htmlFor="faq-category" hint="Customers can filter the FAQ page by category.">
            <select id="faq-category" className={inputCls} value={values.choice} onChange={(e) => set('choice', e.target.value)}>
              <option value={NONE}>{NO_CATEGORY}</option>
              {options.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
              <option value={NEW}>New category…</option>
            </select>
          </Field>
          {values.choice === NEW && (
            <Field label="New category name" required htmlFor="faq-newCategory" error={errors.newCategory}>
              <input
                id="faq-newCategory"
                className={`${inputCls} aria-[invalid=true]:border-red-700`}
                value={values.newCategory}
                onChange={(e) => set('newCategory', e.target.value)}
                required
                // Shown because the owner just chose to add a category: the name is what they type next.
                // eslint-disable-next-line jsx-a11y/no-autofocus
                autoFocus
                {...aria('newCategory')}
              />
            </Field>
          )}
          <FormFooter onCancel={onClose} saving={save.isPending} saveLabel="Save FAQ" />
        </fieldset>
      </form>
    </Dialog>
  );
}

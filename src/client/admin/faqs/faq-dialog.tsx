import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { FAQ_CATEGORY_CHOICE, FaqForm } from '../../../shared/schemas/admin/content.js';
import type { Faq } from '../../../shared/schemas/catalog.js';
import { CONTENT_ADMIN_MESSAGES, FaqInput } from '../../../shared/schemas/content.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, fieldAria, FormFooter, inputCls } from '../components/admin-ui.js';
import { useSaveFaq } from '../api/content-api.js';
import { UnplacedErrors } from '../components/form-errors.js';

const MAX = maxLengths(FaqInput);

export const NO_CATEGORY = 'No Category';
/** Filled in when shoppers read the answer, so it stays true when the shipping options or the tax rule change (shop-facts.ts). */
const ANSWER_HINT =
  'Leave a blank line between paragraphs. {{shipping_rates}}, {{free_shipping}} and {{tax_rule}} show the shop’s current shipping rates, free-shipping minimum and tax rule.';
const NONE = FAQ_CATEGORY_CHOICE.none;
const NEW = FAQ_CATEGORY_CHOICE.new;

export function distinctCategories(faqs: Faq[]): string[] {
  const seen = new Set<string>();
  for (const f of faqs) if (f.category) seen.add(f.category);
  return [...seen];
}

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
  const current = faq ? faq.category : defaultCategory;
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(FaqForm),
    defaultValues: { question: faq?.question ?? '', answer: faq?.answer ?? '', category: current ?? NONE, newCategory: '' },
  });
  const choice = useWatch({ control, name: 'category' });
  // The edited FAQ's category is always offered, even if it is its only member.
  const options = choice !== NONE && choice !== NEW && !categories.includes(choice) ? [...categories, choice] : categories;

  const submit = (body: z.output<typeof FaqForm>) =>
    save.mutate(
      { id: faq?.id ?? null, body },
      {
        onSuccess: () => {
          toast({ title: faq ? CONTENT_ADMIN_MESSAGES.faqUpdated : CONTENT_ADMIN_MESSAGES.faqCreated });
          onClose();
        },
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      },
    );

  // A typed category the body refuses (too long) is shown at the field it was typed in.
  const fieldErrors = {
    question: errors.question?.message,
    answer: errors.answer?.message,
    newCategory: errors.newCategory?.message ?? errors.category?.message,
  };
  const aria = (k: keyof typeof fieldErrors) => fieldAria(fieldErrors[k], `faq-${k}-error`);

  return (
    <Dialog open onClose={onClose} title={faq ? 'Edit FAQ' : 'Add FAQ'}>
      <form onSubmit={(e) => void handleSubmit(submit)(e)} noValidate>
        <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
          <Field label="Question" required htmlFor="faq-question" error={fieldErrors.question}>
            <input
              id="faq-question"
              className={inputCls}
              maxLength={MAX.question}
              {...register('question')}
              required
              {...aria('question')}
            />
          </Field>
          <Field label="Answer" required htmlFor="faq-answer" error={fieldErrors.answer} hint={ANSWER_HINT}>
            <textarea
              id="faq-answer"
              rows={6}
              className={inputCls}
              maxLength={MAX.answer}
              {...register('answer')}
              required
              {...aria('answer')}
            />
          </Field>
          <Field label="Category" htmlFor="faq-category" hint="Customers can filter the FAQ page by category.">
            <select id="faq-category" className={inputCls} {...register('category')}>
              <option value={NONE}>{NO_CATEGORY}</option>
              {options.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
              <option value={NEW}>New category…</option>
            </select>
          </Field>
          {choice === NEW && (
            <Field label="New category name" required htmlFor="faq-newCategory" error={fieldErrors.newCategory}>
              <input
                id="faq-newCategory"
                className={inputCls}
                maxLength={MAX.category}
                {...register('newCategory')}
                required
                // Shown because the owner just chose to add a category: the name is what they type next.
                // eslint-disable-next-line jsx-a11y/no-autofocus
                autoFocus
                {...aria('newCategory')}
              />
            </Field>
          )}
          <UnplacedErrors id="faq-form-errors" errors={errors} placed={['question', 'answer', 'newCategory', 'category']} />
          <FormFooter onCancel={onClose} saving={save.isPending} saveLabel="Save FAQ" />
        </fieldset>
      </form>
    </Dialog>
  );
}

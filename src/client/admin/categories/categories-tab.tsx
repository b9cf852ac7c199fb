import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { CategoryInput } from '../../../shared/schemas/admin/categories.js';
import type { Category } from '../../../shared/schemas/catalog.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { CategoryResponse, OkResponse } from '../api/admin-schemas.js';
import { ADMIN_CATEGORIES_KEY, useAllCategories } from '../api/use-categories.js';
import { ConfirmDialog, DataTable, Field, fieldAria, inputCls, ListState, Panel, RowActions } from '../components/admin-ui.js';
import { ImageUpload } from '../components/image-upload.js';
import { UnplacedErrors } from '../components/form-errors.js';

const MAX = maxLengths(CategoryInput);

function useInvalidateCategories() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: ADMIN_CATEGORIES_KEY }), qc.invalidateQueries({ queryKey: ['categories'] })]);
}

function CategoryDialog({ category, onClose }: { category: Category | null; onClose: () => void }) {
  const invalidate = useInvalidateCategories();
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CategoryInput),
    defaultValues: {
      id: category?.id ?? '',
      name: category?.name ?? '',
      description: category?.description ?? '',
      imageUrl: category?.imageUrl ?? '',
    },
  });
  const imageUrl = useWatch({ control, name: 'imageUrl' });
  const [uploading, setUploading] = useState(false);
  const save = useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, ...rest }: z.output<typeof CategoryInput>) =>
      category
        ? adminSend('PUT', `/api/admin/categories/${encodeURIComponent(category.id)}`, CategoryResponse, rest)
        : adminSend('POST', '/api/admin/categories', CategoryResponse, { id, ...rest }),
    onSuccess: invalidate,
  });

  const submit = (body: z.output<typeof CategoryInput>) =>
    save.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Category has been saved successfully.' });
        onClose();
      },
      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
    });

  const aria = (k: keyof typeof errors) => fieldAria(errors[k]?.message, `category-${k}-error`);

  return (
    <Dialog open onClose={onClose} title={category ? 'Edit Category' : 'Add Category'}>
      <form onSubmit={(e) => void handleSubmit(submit)(e)} noValidate>
        <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
          <Field
            label="ID"
            required
            htmlFor="category-id"
            error={errors.id?.message}
            hint={category ? 'The ID cannot be changed.' : 'Lowercase letters, numbers and hyphens, 3-50 characters.'}
          >
            <input
              id="category-id"
              className={`${inputCls} font-mono`}
              readOnly={Boolean(category)}
              maxLength={MAX.id}
              {...register('id')}
              {...aria('id')}
            />
          </Field>
          <Field label="Name" required htmlFor="category-name" error={errors.name?.message}>
            <input id="category-name" className={inputCls} maxLength={MAX.name} {...register('name')} {...aria('name')} />
          </Field>
          <Field label="Description" htmlFor="category-description" error={errors.description?.message}>
            <textarea
              id="category-description"
              rows={3}
              className={inputCls}
              maxLength={MAX.description}
              {...register('description')}
              {...aria('description')}
            />
          </Field>
          <ImageUpload
            kind="categories"
            label="Image"
            current={imageUrl || null}
            onUploaded={(url) => setValue('imageUrl', url)}
            onBusy={setUploading}
            disabled={save.isPending}
          />
          <UnplacedErrors id="category-form-errors" errors={errors} placed={['id', 'name', 'description']} />
          <p className="text-xs text-stone-600">
            <span className="text-red-700">*</span> Required
          </p>
          <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 pt-4">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={uploading}>
              {save.isPending ? 'Saving…' : 'Save Category'}
            </Button>
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}

/** A category with no active product: the owner sees it; shoppers do not, until it has one. */
export const CATEGORY_HIDDEN_TEXT = 'Empty, hidden from shoppers';

export default function CategoriesTab() {
  const { data, error, isPending, isFetching, refetch } = useAllCategories();
  const invalidate = useInvalidateCategories();
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<Category | null>(null);
  const del = useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/categories/${encodeURIComponent(id)}`, OkResponse),
    onSettled: invalidate,
  });

  return (
    <Panel title="Categories" actions={<Button onClick={() => setEditing('new')}>Add Category</Button>}>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading categories"
        isEmpty={data?.items.length === 0}
        empty={<p>No categories yet.</p>}
      >
        {data && (
          <DataTable
            caption="Categories"
            rows={data.items}
            rowKey={(c) => c.id}
            busy={isFetching}
            columns={[
              { header: 'ID', className: 'font-mono', cell: (c) => c.id },
              {
                header: 'Name',
                primary: true,
                className: 'font-medium',
                cell: (c) => (
                  <span className="flex flex-wrap items-center gap-2">
                    {c.name}
                    {!c.shownToShoppers && (
                      <span className="rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900">
                        {CATEGORY_HIDDEN_TEXT}
                      </span>
                    )}
                  </span>
                ),
              },
              {
                header: 'Products',
                className: 'whitespace-nowrap',
                cell: (c) => `${c.activeProducts}${c.draftProducts ? ` (+${c.draftProducts} draft)` : ''}`,
              },
              { header: 'Description', className: 'max-w-md', cell: (c) => c.description ?? '—' },
              {
                header: 'Image',
                cell: (c) =>
                  c.imageUrl ? (
                    <img src={c.imageUrl} alt="" width={48} height={48} loading="lazy" className="h-12 w-12 rounded object-cover" />
                  ) : (
                    '—'
                  ),
              },
            ]}
            actions={(c) => <RowActions name={c.name} onEdit={() => setEditing(c)} onDelete={() => setToDelete(c)} />}
          />
        )}
      </ListState>
      {editing !== null && <CategoryDialog category={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={toDelete !== null}
        message="Are you sure you want to delete this category? This action cannot be undone."
        busy={del.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          del.mutate(toDelete.id, {
            onSuccess: () => toast({ title: 'Category has been deleted successfully.' }),
            onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
            onSettled: () => setToDelete(null),
          });
        }}
      />
    </Panel>
  );
}

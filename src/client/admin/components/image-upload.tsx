import { useId, useState } from 'react';
import { toast } from '../../ui/toast.js';
import { IMAGE_LIMIT_HINT, messageOf, uploadImage, type UploadKind } from '../api/admin-api.js';

/**
 * File input that uploads the chosen image at once and reports its URL; shows a preview of the
 * new image, or of the current one when none was chosen.
 */
export function ImageUpload({
  kind,
  label,
  current,
  onUploaded,
  onBusy,
  disabled,
}: {
  kind: UploadKind;
  label: string;
  current: string | null;
  onUploaded: (url: string) => void;
  onBusy: (busy: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setUploading(true);
    onBusy(true);
    try {
      onUploaded(await uploadImage(file, kind));
    } catch (err) {
      const message = messageOf(err, 'Upload failed');
      setError(message);
      toast({ title: 'Error', description: message, variant: 'destructive' });
    } finally {
      setUploading(false);
      onBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        {label}
      </label>
      <div className="flex items-center gap-3">
        {current ? (
          <img src={current} alt="Current upload" className="h-20 w-20 shrink-0 rounded-md border border-stone-200 object-cover" />
        ) : (
          <div className="flex h-20 w-20 shrink-0 items-center justify-center rounded-md border border-dashed border-stone-300 text-xs text-stone-600">
            No image
          </div>
        )}
        <input
          id={id}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          disabled={disabled || uploading}
          onChange={(e) => void onFile(e.target.files?.[0])}
          className="min-w-0 text-sm text-stone-800 file:mr-3 file:rounded-md file:border file:border-brand-600 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-50"
        />
      </div>
      <p className="text-xs text-stone-600" aria-live="polite">
        {uploading ? 'Uploading image…' : `${IMAGE_LIMIT_HINT}.`}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

import { Link } from 'react-router';
import type { Category } from '../../../shared/schemas/catalog.js';
import { paths } from '../../lib/paths.js';
import { LeafIcon } from '../../ui/icons.js';
import { ProductImage } from '../../ui/product-image.js';

export function CategoryTile({ category }: { category: Category }) {
  return (
    <Link
      to={paths.productsInCategory(category.id)}
      className="group block overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      {category.imageUrl ? (
        <ProductImage src={category.imageUrl} alt="" width={400} height={300} className="aspect-[4/3] w-full object-cover" />
      ) : (
        <div className="flex aspect-[4/3] w-full items-center justify-center bg-brand-50 text-brand-600">
          <LeafIcon size={40} />
        </div>
      )}
      <div className="p-4">
        <h3 className="font-semibold text-stone-900 group-hover:text-brand-700">{category.name}</h3>
        {category.description && <p className="mt-1 line-clamp-2 text-sm text-stone-600">{category.description}</p>}
      </div>
    </Link>
  );
}

import type { CaseDetailSetting, Image, ImageOrder } from '@pathology/contract';

type Field = ImageOrder['field'];

const collator = new Intl.Collator(['ja', 'en'], { numeric: true, sensitivity: 'base' });

function compareBy(field: Field, a: Image, b: Image): number {
  switch (field) {
    case 'createdAt':
      return a.createdAt.localeCompare(b.createdAt);
    case 'organ':
      // Images without an organ come last whichever way the rest goes.
      if (a.organ == null || b.organ == null) return a.organ == null ? (b.organ == null ? 0 : 1) : -1;
      return collator.compare(a.organ, b.organ);
    case 'displayName':
    case 'filename':
      return collator.compare(a[field], b[field]);
  }
}

/** The case's images in the setting's order: the first priority, then the second among equals, then the name. */
export function sortImages(images: readonly Image[], setting: CaseDetailSetting): Image[] {
  const priorities = [setting.order, ...(setting.thenBy ? [setting.thenBy] : [])];
  return [...images].sort((a, b) => {
    for (const { field, direction } of priorities) {
      const missingOrgan = field === 'organ' && (a.organ == null) !== (b.organ == null);
      const order = compareBy(field, a, b);
      if (order !== 0) return missingOrgan || direction === 'asc' ? order : -order;
    }
    return collator.compare(a.displayName, b.displayName) || a.id.localeCompare(b.id);
  });
}

/** The fields the second priority may use: any but the first's. */
export function secondPriorityFields(first: Field | null, fields: readonly Field[]): Field[] {
  return fields.filter((field) => field !== first);
}

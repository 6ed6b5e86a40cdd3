import { describe, expect, it } from 'vitest';
import { dicomOffers } from './dicom-actions.tsx';

describe('dicomOffers', () => {
  it("offers a converting slide's DICOMweb address once it is viewable, and its files once it is converted", () => {
    expect(dicomOffers({ status: 'uploaded', viewable: false })).toEqual({ download: false, address: false });
    expect(dicomOffers({ status: 'processing', viewable: true })).toEqual({ download: false, address: true });
    expect(dicomOffers({ status: 'available', viewable: true })).toEqual({ download: true, address: true });
    expect(dicomOffers({ status: 'process_failed', viewable: false })).toEqual({ download: false, address: false });
  });
});

import { dimensions, type CaseTemplate } from './case-template.ts';

/** Cytology, dermatopathology and autopsy specimens. */
export const SPECIAL_TEMPLATES: readonly CaseTemplate[] = [
  {
    organ: 'Uterine Cervix',
    specimenType: 'LBC',
    kind: 'cytology',
    sex: 'female',
    ages: [22, 65],
    history: 'Routine cervical screening.',
    write: (r) => {
      const result = r.pick([
        [
          'Negative for intraepithelial lesion or malignancy (NILM)',
          'Superficial and intermediate squamous cells; endocervical component present. Shift in flora suggestive of bacterial vaginosis.',
        ],
        [
          'Low-grade squamous intraepithelial lesion (LSIL)',
          'Koilocytes with perinuclear halos and binucleation; nuclear enlargement three times that of intermediate nuclei.',
        ],
        [
          'High-grade squamous intraepithelial lesion (HSIL)',
          'Small atypical cells with high N/C ratio, hyperchromasia and irregular nuclear membranes, singly and in syncytial groups.',
        ],
        [
          'Atypical squamous cells of undetermined significance (ASC-US)',
          'Occasional squamous cells with mild nuclear enlargement and slight hyperchromasia, insufficient for LSIL.',
        ],
      ] as const);
      return {
        diagnosis: result[0],
        grossFindings: `${r.pick(['ThinPrep', 'SurePath', 'CellPrep'])} vial, ${r.int(15, 20)} mL, ${r.pick(['clear', 'slightly bloody'])}. Specimen adequacy: satisfactory.`,
        microscopicFindings: result[1],
      };
    },
  },
  {
    organ: 'Urine',
    specimenType: 'LBC',
    kind: 'cytology',
    sex: 'any',
    ages: [50, 90],
    history: 'Haematuria; voided urine for cytology.',
    write: (r) =>
      r.chance(0.6)
        ? {
            diagnosis: 'Negative for high-grade urothelial carcinoma (NHGUC)',
            grossFindings: `Voided urine, ${r.int(30, 90)} mL, yellow and clear.`,
            microscopicFindings:
              'Benign urothelial and squamous cells with scattered inflammatory cells. N/C ratio below 0.5.',
          }
        : {
            diagnosis: 'Suspicious for high-grade urothelial carcinoma (SHGUC)',
            grossFindings: `Voided urine, ${r.int(20, 60)} mL, slightly turbid.`,
            microscopicFindings: `${r.int(3, 9)} atypical urothelial cells with N/C ratio above 0.7, hyperchromasia and irregular chromatin.`,
          },
  },
  {
    organ: 'Pancreas',
    specimenType: 'biopsy',
    kind: 'cytology',
    sex: 'any',
    ages: [50, 85],
    history: 'Hypoechoic pancreatic body mass; EUS-FNA with rapid on-site evaluation.',
    write: (r) => ({
      diagnosis: r.chance(0.6)
        ? 'Positive for malignancy: adenocarcinoma'
        : 'Atypical cells, suspicious for adenocarcinoma',
      grossFindings: `${r.int(2, 4)} passes; direct smears and a cell block of ${r.float(0.2, 0.8)} cm in aggregate.`,
      microscopicFindings:
        'Crowded sheets of ductal cells with a "drunken honeycomb" pattern, nuclear enlargement and membrane irregularity; background necrosis.',
    }),
  },
  {
    organ: 'Skin',
    specimenType: 'biopsy',
    kind: 'dermatology',
    sex: 'any',
    ages: [30, 90],
    history: 'Pearly papule on the nose; shave biopsy.',
    write: (r) => ({
      diagnosis: `Basal cell carcinoma, ${r.pick(['nodular', 'superficial', 'infiltrative'])} type`,
      grossFindings: `Shave of skin, ${r.float(0.4, 1.2)} x ${r.float(0.3, 0.9)} cm, with a central pearly papule.`,
      microscopicFindings:
        'Nests of basaloid cells with peripheral palisading and retraction artefact in a mucinous stroma. Tumour extends to the deep margin.',
    }),
  },
  {
    organ: 'Skin',
    specimenType: 'surgical',
    kind: 'dermatology',
    sex: 'any',
    ages: [25, 80],
    history: 'Changing pigmented lesion on the back; excision with 2 mm margins.',
    write: (r) => {
      const breslow = r.float(0.3, 2.4, 2);
      return {
        diagnosis: `Malignant melanoma, superficial spreading type, Breslow thickness ${breslow} mm`,
        grossFindings: `Ellipse of skin, ${dimensions(r, 0.6, 3.2)} cm, with an irregular variegated brown-black macule ${r.float(0.5, 1.4)} cm.`,
        microscopicFindings: `Atypical melanocytes in nests and single cells with pagetoid spread; dermal invasion to ${breslow} mm, ${r.int(0, 3)} mitoses/mm². ${breslow > 1 ? 'No ulceration.' : 'No ulceration or regression.'} Margins clear.`,
      };
    },
  },
  {
    organ: 'Skin',
    specimenType: 'biopsy',
    kind: 'dermatology',
    sex: 'any',
    ages: [20, 85],
    history: 'Pigmented or scaly skin lesion; punch biopsy.',
    write: (r) => {
      const [diagnosis, micro] = r.pick([
        ['Seborrheic keratosis', 'Acanthotic epidermis of basaloid keratinocytes with horn pseudocysts. No atypia.'],
        [
          'Squamous cell carcinoma in situ (Bowen disease)',
          'Full-thickness keratinocyte atypia with loss of maturation and dyskeratosis; basement membrane intact.',
        ],
        [
          'Compound melanocytic nevus',
          'Symmetrical nests of bland melanocytes at the junction and in the dermis with maturation in depth.',
        ],
      ] as const);
      return {
        diagnosis,
        grossFindings: `Punch biopsy of skin, ${r.int(3, 6)} mm in diameter, ${r.float(0.3, 0.8)} cm deep.`,
        microscopicFindings: micro,
      };
    },
  },
  {
    organ: 'Heart',
    specimenType: 'autopsy',
    kind: 'autopsy',
    sex: 'any',
    ages: [55, 90],
    history: 'Sudden death at home; history of hypertension and diabetes.',
    write: (r) => ({
      diagnosis: 'Acute myocardial infarction of the left ventricular anterior wall; severe coronary atherosclerosis',
      grossFindings: `Heart ${r.int(380, 560)} g. ${r.int(75, 95)}% stenosis of the left anterior descending artery with a fresh thrombus; mottled anterior wall.`,
      microscopicFindings:
        'Coagulative necrosis of cardiomyocytes with contraction bands and a neutrophilic infiltrate, consistent with an infarct of 1 to 3 days.',
    }),
  },
  {
    organ: 'Lung',
    specimenType: 'autopsy',
    kind: 'autopsy',
    sex: 'any',
    ages: [45, 90],
    history: 'Respiratory failure after severe pneumonia in intensive care.',
    write: (r) => ({
      diagnosis: 'Diffuse alveolar damage, exudative phase',
      grossFindings: `Right lung ${r.int(850, 1300)} g, left lung ${r.int(750, 1200)} g; heavy, firm and dark red.`,
      microscopicFindings:
        'Hyaline membranes lining alveolar ducts, interstitial oedema and type II pneumocyte hyperplasia.',
    }),
  },
  {
    organ: 'Liver',
    specimenType: 'autopsy',
    kind: 'autopsy',
    sex: 'any',
    ages: [45, 80],
    history: 'Alcohol-related liver disease; died of variceal bleeding.',
    write: (r) => ({
      diagnosis: 'Cirrhosis, micronodular, with steatohepatitis',
      grossFindings: `Liver ${r.int(950, 1500)} g, diffusely nodular with nodules under 0.3 cm and a yellow-tan cut surface.`,
      microscopicFindings:
        'Regenerative nodules separated by fibrous septa; macrovesicular steatosis, ballooned hepatocytes and Mallory-Denk bodies.',
    }),
  },
];

import { dimensions, type CaseTemplate } from './case-template.ts';

/** Surgical and biopsy specimens of a general pathology service. */
export const GENERAL_TEMPLATES: readonly CaseTemplate[] = [
  {
    organ: 'Breast',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'female',
    ages: [38, 79],
    history: 'Screen-detected spiculated mass, BI-RADS 5; ultrasound-guided core biopsy.',
    write: (r) => {
      const grade = r.int(1, 3);
      return {
        diagnosis: `Invasive ductal carcinoma (NST), grade ${grade}`,
        grossFindings: `${r.int(3, 6)} cores of tan-white tissue, ${r.float(1.2, 4.5)} cm in aggregate length. Entirely submitted.`,
        microscopicFindings: `Infiltrating nests and cords of atypical ductal cells with ${grade === 3 ? 'marked' : 'moderate'} nuclear pleomorphism and ${r.int(2, 24)} mitoses per 10 HPF. ${r.chance(0.3) ? 'Associated DCIS, cribriform type.' : 'No in situ component sampled.'} No lymphovascular invasion identified.`,
      };
    },
  },
  {
    organ: 'Breast',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'female',
    ages: [42, 76],
    history: 'Wire-localised lumpectomy for calcifications; prior core biopsy showed DCIS.',
    write: (r) => {
      const grade = r.pick(['intermediate', 'high']);
      return {
        diagnosis: `Ductal carcinoma in situ, ${grade} nuclear grade, ${r.pick(['cribriform', 'solid', 'comedo'])} type`,
        grossFindings: `Lumpectomy, ${dimensions(r, 3, 8)} cm, with a ${r.float(0.6, 2.5)} cm ill-defined firm area around the wire tip. Margins inked: superior blue, inferior black.`,
        microscopicFindings: `Ducts distended by atypical cells with central necrosis and microcalcifications. No invasion in ${r.int(18, 40)} blocks examined. Closest margin ${r.int(1, 9)} mm (${r.pick(['superior', 'inferior', 'anterior', 'deep'])}).`,
      };
    },
  },
  {
    organ: 'Colon',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'any',
    ages: [45, 82],
    history: 'Surveillance colonoscopy; pedunculated polyp removed by snare.',
    write: (r) => ({
      diagnosis: r.chance(0.75)
        ? 'Tubular adenoma with low-grade dysplasia'
        : 'Tubulovillous adenoma with low-grade dysplasia',
      grossFindings: `Polypoid fragment ${r.float(0.4, 2.2)} cm with a ${r.float(0.1, 0.6)} cm stalk; bisected and entirely submitted.`,
      microscopicFindings:
        'Crowded tubular glands lined by elongated, pseudostratified hyperchromatic nuclei. No high-grade dysplasia or invasion. Stalk margin free.',
    }),
  },
  {
    organ: 'Colon',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'any',
    ages: [52, 88],
    history: 'Sigmoid colon cancer on colonoscopy; laparoscopic sigmoidectomy.',
    write: (r) => {
      const total = r.int(12, 28);
      const positive = r.chance(0.5) ? 0 : r.int(1, 5);
      return {
        diagnosis: `Adenocarcinoma, moderately differentiated, pT3 pN${positive === 0 ? '0' : positive < 4 ? '1' : '2a'}`,
        grossFindings: `Sigmoid colon, ${r.int(14, 28)} cm, with an ulcerated circumferential tumour ${r.float(2.5, 6)} cm in greatest dimension, ${r.int(4, 12)} cm from the distal margin.`,
        microscopicFindings: `Invasive glands with dirty necrosis extending through the muscularis propria into pericolic fat. ${positive}/${total} lymph nodes positive. Tumour budding ${r.pick(['low', 'intermediate'])}. Mismatch repair proteins retained.`,
      };
    },
  },
  {
    organ: 'Stomach',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'any',
    ages: [35, 84],
    history: 'Epigastric pain; antral erosions on endoscopy.',
    write: (r) =>
      r.chance(0.5)
        ? {
            diagnosis: 'Chronic active gastritis, Helicobacter pylori-associated',
            grossFindings: `${r.int(2, 5)} fragments of tan mucosa, up to ${r.float(0.2, 0.5)} cm.`,
            microscopicFindings:
              'Antral mucosa with dense lymphoplasmacytic infiltrate, neutrophils in the foveolar epithelium and curved bacilli on the surface. No intestinal metaplasia or dysplasia.',
          }
        : {
            diagnosis: 'Tubular adenocarcinoma, well differentiated (tub1)',
            grossFindings: `${r.int(3, 6)} fragments of tan mucosa from a ${r.float(0.8, 2.5)} cm depressed lesion of the lesser curvature.`,
            microscopicFindings:
              'Irregular, fused glands lined by atypical columnar cells with enlarged nuclei and loss of polarity, infiltrating the lamina propria.',
          },
  },
  {
    organ: 'Stomach',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'any',
    ages: [40, 80],
    history: 'Diffuse-type gastric cancer; distal gastrectomy.',
    write: (r) => ({
      diagnosis: `Poorly cohesive carcinoma, signet-ring cell type, pT${r.pick(['2', '3', '4a'])}`,
      grossFindings: `Distal stomach, ${r.int(10, 18)} cm along the greater curvature, with a thickened rigid wall over ${r.float(3, 7)} cm.`,
      microscopicFindings:
        'Discohesive signet-ring cells infiltrating all layers of the wall with desmoplasia. Proximal and distal margins free of tumour.',
    }),
  },
  {
    organ: 'Lung',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'any',
    ages: [50, 86],
    history: 'Right upper lobe mass on CT; transbronchial biopsy.',
    write: (r) => {
      const squamous = r.chance(0.4);
      return {
        diagnosis: squamous ? 'Squamous cell carcinoma, keratinizing' : 'Adenocarcinoma, acinar predominant',
        grossFindings: `${r.int(3, 7)} fragments of grey-tan tissue, up to ${r.float(0.1, 0.4)} cm.`,
        microscopicFindings: squamous
          ? 'Sheets of atypical squamous cells with keratin pearls and intercellular bridges. p40 positive, TTF-1 negative.'
          : 'Atypical glands in a desmoplastic stroma; TTF-1 and Napsin A positive, p40 negative. Material sufficient for molecular testing.',
      };
    },
  },
  {
    organ: 'Lung',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'any',
    ages: [55, 82],
    history: 'Part-solid nodule; right upper lobectomy.',
    write: (r) => ({
      diagnosis: `Invasive non-mucinous adenocarcinoma, lepidic predominant, pT1${r.pick(['a', 'b'])}`,
      grossFindings: `Right upper lobe, ${dimensions(r, 8, 16)} cm, with a subpleural grey-white nodule ${r.float(0.8, 1.9)} cm.`,
      microscopicFindings: `Lepidic growth (${r.int(50, 70)}%) with acinar (${r.int(20, 35)}%) and papillary components. Invasive size ${r.float(0.5, 1.2)} cm. No pleural invasion.`,
    }),
  },
  {
    organ: 'Prostate',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'male',
    ages: [55, 80],
    history: 'PSA 7.8 ng/mL; MRI PI-RADS 4 lesion; systematic and targeted biopsy.',
    write: (r) => {
      const primary = r.pick([3, 3, 4]);
      const secondary = r.pick([3, 4, 4, 5]);
      const score = primary + secondary;
      const group = score <= 6 ? 1 : score === 7 ? (primary === 3 ? 2 : 3) : score === 8 ? 4 : 5;
      return {
        diagnosis: `Acinar adenocarcinoma, Gleason score ${primary}+${secondary}=${score} (Grade Group ${group})`,
        grossFindings: `${r.int(10, 14)} cores labelled by site, ranging from ${r.float(0.6, 1.0)} to ${r.float(1.2, 1.9)} cm.`,
        microscopicFindings: `Carcinoma in ${r.int(2, 6)} of 12 cores, up to ${r.int(20, 80)}% of core length. ${r.chance(0.3) ? 'Perineural invasion present.' : 'No perineural invasion.'}`,
      };
    },
  },
  {
    organ: 'Pancreas',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'any',
    ages: [50, 82],
    history: 'Pancreatic head mass with obstructive jaundice; pancreaticoduodenectomy.',
    write: (r) => ({
      diagnosis: 'Pancreatic ductal adenocarcinoma, moderately differentiated',
      grossFindings: `Pancreaticoduodenectomy with a firm white tumour ${r.float(2, 4.5)} cm in the pancreatic head, abutting the common bile duct.`,
      microscopicFindings: `Haphazard infiltrating glands in desmoplastic stroma with perineural invasion. ${r.int(0, 4)}/${r.int(14, 25)} lymph nodes positive. SMA margin ${r.int(1, 8)} mm.`,
    }),
  },
  {
    organ: 'Lymph Node',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'any',
    ages: [20, 75],
    history: 'Persistent cervical lymphadenopathy; excisional biopsy.',
    write: (r) =>
      r.chance(0.5)
        ? {
            diagnosis: 'Reactive follicular hyperplasia',
            grossFindings: `Lymph node, ${dimensions(r, 0.8, 2.4)} cm, with a homogeneous tan cut surface.`,
            microscopicFindings:
              'Enlarged secondary follicles with polarised germinal centres and tingible-body macrophages. Sinuses patent. No atypical population.',
          }
        : {
            diagnosis: `Metastatic carcinoma in 1 of ${r.int(2, 6)} lymph nodes`,
            grossFindings: `${r.int(2, 6)} lymph nodes, the largest ${r.float(1.2, 2.8)} cm with a white nodular cut surface.`,
            microscopicFindings: `Metastatic adenocarcinoma replacing ${r.int(30, 90)}% of one node, without extranodal extension.`,
          },
  },
  {
    organ: 'Liver',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'any',
    ages: [30, 70],
    history: 'Raised transaminases; chronic hepatitis B.',
    write: (r) => ({
      diagnosis: `Chronic hepatitis, grade ${r.int(1, 3)}, stage ${r.int(1, 3)} (METAVIR)`,
      grossFindings: `Needle core ${r.float(1.2, 2.4)} cm.`,
      microscopicFindings: `${r.int(8, 16)} portal tracts with lymphocytic infiltrate and interface hepatitis; periportal fibrosis with occasional septa. Ground-glass hepatocytes present.`,
    }),
  },
  {
    organ: 'Thyroid Gland',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'female',
    ages: [25, 65],
    history: 'Bethesda VI nodule; total thyroidectomy.',
    write: (r) => ({
      diagnosis: 'Papillary thyroid carcinoma, classic type',
      grossFindings: `Thyroid, ${r.int(18, 35)} g, with a ${r.float(0.7, 2.8)} cm firm white nodule in the ${r.pick(['right', 'left'])} lobe.`,
      microscopicFindings:
        'Papillae lined by cells with overlapping, clear, grooved nuclei and pseudoinclusions; psammoma bodies. No extrathyroidal extension.',
    }),
  },
  {
    organ: 'Kidney',
    specimenType: 'surgical',
    kind: 'general',
    sex: 'any',
    ages: [45, 80],
    history: 'Incidental renal mass; partial nephrectomy.',
    write: (r) => ({
      diagnosis: `Clear cell renal cell carcinoma, WHO/ISUP grade ${r.int(1, 3)}, pT1${r.pick(['a', 'b'])}`,
      grossFindings: `Partial nephrectomy, ${dimensions(r, 2.5, 6)} cm, with a golden-yellow variegated tumour ${r.float(2, 5.5)} cm.`,
      microscopicFindings:
        'Nests of cells with clear cytoplasm in a delicate vascular network. No sarcomatoid features or necrosis. Parenchymal margin free.',
    }),
  },
  {
    organ: 'Urinary Bladder',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'any',
    ages: [55, 88],
    history: 'Painless haematuria; transurethral resection of a papillary tumour.',
    write: (r) => ({
      diagnosis: 'Non-invasive papillary urothelial carcinoma, low grade (pTa)',
      grossFindings: `Multiple fragments of papillary tan tissue, ${r.float(1, 4)} cm in aggregate.`,
      microscopicFindings:
        'Delicate papillae lined by orderly urothelium with mild variation in nuclear size. Muscularis propria present and uninvolved.',
    }),
  },
  {
    organ: 'Endometrium',
    specimenType: 'biopsy',
    kind: 'general',
    sex: 'female',
    ages: [45, 72],
    history: 'Postmenopausal bleeding; endometrial sampling.',
    write: (r) =>
      r.chance(0.5)
        ? {
            diagnosis: 'Endometrioid adenocarcinoma, FIGO grade 1',
            grossFindings: `Abundant tan-red fragments, ${r.float(1.5, 3.5)} cm in aggregate.`,
            microscopicFindings:
              'Back-to-back glands with cribriform architecture and squamous morules; less than 5% solid growth.',
          }
        : {
            diagnosis: 'Atrophic endometrium; no hyperplasia or malignancy',
            grossFindings: `Scant tan mucoid fragments, ${r.float(0.3, 1)} cm in aggregate.`,
            microscopicFindings: 'Strips of inactive endometrial surface epithelium and scant stroma.',
          },
  },
];

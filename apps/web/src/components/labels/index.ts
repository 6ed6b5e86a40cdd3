// Label icons and toggles shared by the case list and the case detail screens.
export { LabelGlyph, LabelIcon } from './label-icons.tsx';
export { StarToggle, type StarToggleProps } from './StarToggle.tsx';
export { PublicLabelPicker, type PublicLabelPickerProps } from './PublicLabelPicker.tsx';
export { useLabelText } from './useLabelText.ts';
export * from './label-toggle.ts';
export { changeCaseLabel, createImageLabel, deleteImageLabel, publicLabel, STAR_LABEL } from './label.api.ts';

import { DateInput, type DateInputProps } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';

/** The spec's date format (part 1 §9), the same in both languages. */
export const DATE_FIELD_FORMAT = 'YYYY-MM-DD';

type DateFieldProps = Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat'> & {
  /** 'yyyy-MM-dd', or '' when empty: the forms keep the string the contract takes. */
  value: string;
  onChange: (value: string) => void;
};

/** A date field with the app's calendar (Monday first, UI language) in place of the browser's own picker. */
export function DateField({ value, onChange, ...props }: DateFieldProps) {
  return (
    <DateInput
      valueFormat={DATE_FIELD_FORMAT}
      placeholder="yyyy-MM-dd"
      leftSection={<IconCalendar size={16} stroke={1.5} />}
      popoverProps={{ withinPortal: true }}
      {...props}
      value={value === '' ? null : value}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}

/**
 * Addresses of cloud and hosting networks, which the figures leave out (issue 46, the method of
 * Plausible and Fathom): scripts and headless browsers run there, parents do not. The networks are
 * listed in src/config/data-centres.json; their ranges are written into data-centre-ranges.json
 * by `npm run data-centres` from IP-to-ASN data by RouteViews, the NRO and DB-IP (CC BY 4.0),
 * nothing fetched at run time (docs/insights.md). Only the figures use this: a form, a letter or a
 * page works the same from a data centre.
 */
import { addressValue } from '../identity';
import ranges from './data-centre-ranges.json';

type Range<T> = readonly [T, T];

/** Whether `value` lies in one of `sorted`'s ranges (sorted by start, not overlapping). */
function within<T extends number | string>(sorted: readonly Range<T>[], value: T): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = sorted[middle]!;
    if (value < start) high = middle - 1;
    else if (value > end) low = middle + 1;
    else return true;
  }
  return false;
}

const v4 = ranges.v4 as unknown as readonly Range<number>[];
const v6 = ranges.v6 as unknown as readonly Range<string>[];

/** Whether the client's address is in a listed data centre's network. */
export function isDataCentre(ip: string | undefined): boolean {
  const address = ip ? addressValue(ip) : undefined;
  if (!address) return false;
  return address.family === 4 ? within(v4, address.value) : within(v6, address.value);
}
